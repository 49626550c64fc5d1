import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions, Value } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { connectQuerySession, PgQuerySession, type PgSessionSetup } from '../engine/query-session.js';
import { tprochStatement } from './sql.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** application_name of a TPROC-H stream's session. */
export const streamApplicationName = (stream: number): string => `sledge-tproch-${stream}`;

/**
 * One TPROC-H stream on PostgreSQL: the engine's query session (timed
 * queries, explain, cancel, DOP and statement timeout; see
 * engine/query-session.ts) named sledge-tproch-<n>, plus the refresh
 * functions RF1 and RF2.
 */
class PgStream extends PgQuerySession implements TprochStream {
  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const order = tprochStatement('refresh.sql', 'rf1_order');
    const line = tprochStatement('refresh.sql', 'rf1_lineitem');
    const defer = tprochStatement('refresh.sql', 'defer_constraints');
    await this.trickle(orders, o, defer, async (x) => {
      await this.c.query(order, x.order as Value[]);
      for (const l of x.lineitems) await this.c.query(line, l as Value[]);
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const lines = tprochStatement('refresh.sql', 'rf2_lineitem');
    const order = tprochStatement('refresh.sql', 'rf2_order');
    await this.trickle(orderKeys, o, undefined, async (k) => {
      await this.c.query(lines, [k]);
      await this.c.query(order, [k]);
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, atBegin: string | undefined, apply: (x: X) => Promise<void>): Promise<void> {
    const every = Math.max(1, o.commitEvery);
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) {
          await this.c.query('BEGIN');
          if (atBegin) await this.c.query(atBegin);
        }
        await apply(x);
        if (++inTx >= every) {
          await this.c.query('COMMIT');
          inTx = 0;
        }
      }
      if (inTx > 0) await this.c.query('COMMIT');
    } catch (e) {
      if (inTx > 0) await this.c.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }
}

export async function openPgTprochStream(t: PostgresqlTarget, opts: TprochStreamOptions): Promise<TprochStream> {
  const setup: PgSessionSetup = { applicationName: streamApplicationName(opts.stream), dop: opts.dop, queryTimeoutSec: opts.queryTimeoutSec, log: opts.log };
  const { c, pid } = await connectQuerySession(t, setup);
  return new PgStream(c, pid, t, setup);
}
