import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions, Value } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import { SessionClosedError } from '../engine/errors.js';
import { DuckdbQuerySession, openHandle } from '../engine/query-session.js';
import { tprochSql } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One TPROC-H stream on DuckDB: the engine's query session (interrupt for
 * cancel and the statement timeout, `threads` for the degree of
 * parallelism) plus the refresh functions as prepared statements on the
 * session's connection.
 */
class DuckdbStream extends DuckdbQuerySession implements TprochStream {
  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const sql = tprochSql('refresh.sql');
    const order = await this.handle.conn.prepare(sql.rf1_order);
    const line = await this.handle.conn.prepare(sql.rf1_lineitem);
    await this.trickle(orders, o, async (x) => {
      order.bind(x.order as Value[]);
      await order.run();
      for (const l of x.lineitems) {
        line.bind(l as Value[]);
        await line.run();
      }
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const sql = tprochSql('refresh.sql');
    const lines = await this.handle.conn.prepare(sql.rf2_lineitem);
    const order = await this.handle.conn.prepare(sql.rf2_order);
    await this.trickle(orderKeys, o, async (k) => {
      lines.bind([k]);
      await lines.run();
      order.bind([k]);
      await order.run();
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, apply: (x: X) => Promise<void>): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    const every = Math.max(1, o.commitEvery);
    const conn = this.handle.conn;
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) await conn.run('BEGIN TRANSACTION');
        await apply(x);
        if (++inTx >= every) {
          await conn.run('COMMIT');
          inTx = 0;
        }
      }
      if (inTx > 0) await conn.run('COMMIT');
    } catch (e) {
      if (inTx > 0) await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }
}

export async function openTprochStream(target: DuckdbTarget, opts: TprochStreamOptions): Promise<TprochStream> {
  return new DuckdbStream(await openHandle(target, opts.dop), opts.queryTimeoutSec);
}
