import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { MssqlQuerySession, sessionOpenOptions } from '../engine/query-session.js';
import { TediousStreamConn, type StreamConn, type StreamOpenOptions } from '../engine/tds.js';
import { rowParams } from './columns.js';
import { mssqlTprochSql, type MssqlTprochSql } from './sqlfiles.js';

export { sendable, withMaxdop } from '../engine/query-session.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A stream's connection: the TPROC-H database, program name sledge-tproch-<stream>, the query timeout as tedious requestTimeout. */
export function streamOpenOptions(t: MssqlTarget, o: TprochStreamOptions): StreamOpenOptions {
  return sessionOpenOptions(t, `sledge-tproch-${o.stream}`, o.queryTimeoutSec);
}

/**
 * One TPROC-H stream on SQL Server: the engine's query session (MAXDOP,
 * request timeout, attention cancel, SHOWPLAN_TEXT; see
 * engine/query-session.ts) plus the refresh functions RF1 and RF2.
 */
export class MssqlTprochStream extends MssqlQuerySession implements TprochStream {
  constructor(
    conn: StreamConn,
    dop: number,
    private readonly lib: MssqlTprochSql = mssqlTprochSql,
  ) {
    super(conn, dop);
  }

  static async open(t: MssqlTarget, o: TprochStreamOptions): Promise<MssqlTprochStream> {
    const conn = await TediousStreamConn.open(t, streamOpenOptions(t, o));
    return new MssqlTprochStream(conn, o.dop);
  }

  /** Orders one at a time (sleep, check stop, statements), committing every commitEvery orders and at the end. */
  private async refresh<T>(items: readonly T[], o: TprochRefreshOptions, apply: (item: T) => Promise<void>): Promise<void> {
    let open = 0;
    try {
      for (const item of items) {
        // stopped() is asked once per order, before its trickle sleep.
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (open === 0) await this.conn.begin();
        open++;
        await apply(item);
        if (open >= Math.max(1, o.commitEvery)) {
          await this.conn.commit();
          open = 0;
        }
      }
      if (open > 0) await this.conn.commit();
    } catch (e) {
      if (open > 0) await this.conn.rollback().catch(() => undefined);
      throw e;
    }
  }

  newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const insertOrder = this.lib.get('refresh', 'insert_order');
    const insertLine = this.lib.get('refresh', 'insert_lineitem');
    return this.refresh(orders, o, async (ord) => {
      await this.conn.exec(insertOrder, rowParams('orders', ord.order));
      for (const li of ord.lineitems) await this.conn.exec(insertLine, rowParams('lineitem', li));
    });
  }

  oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const delLines = this.lib.get('refresh', 'delete_lineitem');
    const delOrder = this.lib.get('refresh', 'delete_order');
    return this.refresh(orderKeys, o, async (key) => {
      const p = [{ name: 'orderkey', type: 'bigint' as const, value: key }];
      await this.conn.exec(delLines, p);
      await this.conn.exec(delOrder, p);
    });
  }
}
