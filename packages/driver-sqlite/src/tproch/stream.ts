import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions, Value } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { openExisting, VU_TUNING } from '../engine/connection.js';
import { SessionClosedError } from '../engine/errors.js';
import { SqliteQuerySession } from '../engine/query-session.js';
import { tprochSql } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One TPROC-H stream on SQLite: the engine's query session (queries in a
 * child process of their own, so cancel() and the statement timeout stop a
 * query in the middle; see engine/query-session.ts) plus the refresh
 * functions, which run on the session's own connection in this process.
 */
class SqliteStream extends SqliteQuerySession implements TprochStream {
  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const sql = tprochSql('refresh.sql');
    const order = this.db.prepare<[readonly Value[]]>(sql.rf1_order);
    const line = this.db.prepare<[readonly Value[]]>(sql.rf1_lineitem);
    await this.trickle(orders, o, (x) => {
      order.run(x.order);
      for (const l of x.lineitems) line.run(l);
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const sql = tprochSql('refresh.sql');
    const lines = this.db.prepare<[number]>(sql.rf2_lineitem);
    const order = this.db.prepare<[number]>(sql.rf2_order);
    await this.trickle(orderKeys, o, (k) => {
      lines.run(k);
      order.run(k);
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, apply: (x: X) => void): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    const every = Math.max(1, o.commitEvery);
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) this.db.exec('BEGIN IMMEDIATE');
        apply(x);
        if (++inTx >= every) {
          this.db.exec('COMMIT');
          inTx = 0;
        }
      }
      if (this.db.inTransaction) this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }
}

export function openTprochStream(target: SqliteTarget, opts: TprochStreamOptions): TprochStream {
  return new SqliteStream(target, openExisting(target, VU_TUNING), opts.queryTimeoutSec);
}
