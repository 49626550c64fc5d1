import type { Connection } from 'mysql2/promise';
import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { Flavour, MyTarget } from '../engine/flavour.js';
import { connectQuerySession, MyQuerySession, type MySessionSetup } from '../engine/query-session.js';
import type { TprochSqlSet } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One TPROC-H stream on MySQL or MariaDB: the engine's query session
 * (timed queries, explain, KILL QUERY cancel, the server's statement
 * timeout; see engine/query-session.ts), named by its connection attribute
 * sledge_role (sledge-tproch-<n>), plus the refresh functions RF1 and RF2.
 */
class MyStream extends MyQuerySession implements TprochStream {
  constructor(
    c: Connection,
    id: number,
    t: MyTarget,
    flavour: Flavour,
    setup: MySessionSetup,
    private readonly sql: TprochSqlSet,
  ) {
    super(c, id, t, flavour, setup);
  }

  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const order = this.sql.statement('refresh.sql', 'rf1_order');
    const line = this.sql.statement('refresh.sql', 'rf1_lineitem');
    await this.trickle(orders, o, async (x) => {
      await this.c.execute(order, x.order);
      for (const l of x.lineitems) await this.c.execute(line, l);
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const lines = this.sql.statement('refresh.sql', 'rf2_lineitem');
    const order = this.sql.statement('refresh.sql', 'rf2_order');
    await this.trickle(orderKeys, o, async (k) => {
      await this.c.execute(lines, [k]);
      await this.c.execute(order, [k]);
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, apply: (x: X) => Promise<void>): Promise<void> {
    const every = Math.max(1, o.commitEvery);
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) await this.c.query(this.sql.statement('refresh.sql', 'begin'));
        await apply(x);
        if (++inTx >= every) {
          await this.c.query(this.sql.statement('refresh.sql', 'commit'));
          inTx = 0;
        }
      }
      if (inTx > 0) await this.c.query(this.sql.statement('refresh.sql', 'commit'));
    } catch (e) {
      if (inTx > 0) await this.c.query(this.sql.statement('refresh.sql', 'rollback')).catch(() => undefined);
      throw e;
    }
  }
}

export async function openMyTprochStream(t: MyTarget, flavour: Flavour, sql: TprochSqlSet, opts: TprochStreamOptions): Promise<TprochStream> {
  const setup: MySessionSetup = { role: `sledge-tproch-${opts.stream}`, queryTimeoutSec: opts.queryTimeoutSec, log: opts.log };
  const { c, id } = await connectQuerySession(t, flavour, setup);
  return new MyStream(c, id, t, flavour, setup, sql);
}
