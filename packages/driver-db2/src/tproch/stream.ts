import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { Db2Target } from '@sledge/protocol';
import type { IbmParam } from '../engine/library.js';
import { Db2QuerySession, type SideOpener, type StreamDb } from '../engine/query-session.js';
import { db2TprochSql, type Db2TprochSql } from './sqlfiles.js';

export { FETCH_ARRAY, SQL_ATTR_QUERY_TIMEOUT, sendable, type IbmResult, type IbmStatement, type SideOpener, type StreamDb } from '../engine/query-session.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One TPROC-H stream on Db2: the engine's query session (CURRENT DEGREE,
 * SQL_ATTR_QUERY_TIMEOUT, WLM_CANCEL_ACTIVITY cancel, EXPLAIN PLAN; see
 * engine/query-session.ts) plus the refresh functions RF1 and RF2. Its
 * EXPLAIN query numbers are stream x 100 + the query number.
 */
export class Db2TprochStream extends Db2QuerySession implements TprochStream {
  constructor(
    db: StreamDb,
    handle: number,
    o: { stream: number; queryTimeoutSec: number },
    openSide: SideOpener,
    private readonly sql: Db2TprochSql = db2TprochSql,
  ) {
    super(db, handle, { planBase: o.stream * 100, queryTimeoutSec: o.queryTimeoutSec }, openSide);
  }

  /** Session setup on an open connection: degree of parallelism, then the application handle. */
  static async init(db: StreamDb, o: TprochStreamOptions, openSide: SideOpener, sql: Db2TprochSql = db2TprochSql): Promise<Db2TprochStream> {
    const handle = await Db2QuerySession.setup(db, { dop: o.dop });
    return new Db2TprochStream(db, handle, { stream: o.stream, queryTimeoutSec: o.queryTimeoutSec }, openSide, sql);
  }

  static async open(t: Db2Target, o: TprochStreamOptions): Promise<Db2TprochStream> {
    const connect = Db2QuerySession.opener(t);
    const db = (await connect()) as StreamDb;
    try {
      return await Db2TprochStream.init(db, o, connect);
    } catch (e) {
      await db.close().catch(() => undefined);
      throw e;
    }
  }

  private async refresh<T>(items: readonly T[], o: TprochRefreshOptions, apply: (item: T) => Promise<void>): Promise<void> {
    let open = 0;
    try {
      for (const item of items) {
        // stopped() is asked once per order, before its trickle sleep.
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (open === 0) await this.db.beginTransaction();
        open++;
        await apply(item);
        if (open >= Math.max(1, o.commitEvery)) {
          await this.db.commitTransaction();
          open = 0;
        }
      }
      if (open > 0) await this.db.commitTransaction();
    } catch (e) {
      if (open > 0) await this.db.rollbackTransaction().catch(() => undefined);
      throw e;
    }
  }

  newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const insertOrder = this.sql.get('refresh', 'insert_order');
    const insertLine = this.sql.get('refresh', 'insert_lineitem');
    return this.refresh(orders, o, async (ord) => {
      await this.db.query(insertOrder, ord.order.slice() as IbmParam[]);
      for (const li of ord.lineitems) await this.db.query(insertLine, li.slice() as IbmParam[]);
    });
  }

  oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const delLines = this.sql.get('refresh', 'delete_lineitem');
    const delOrder = this.sql.get('refresh', 'delete_order');
    return this.refresh(orderKeys, o, async (key) => {
      await this.db.query(delLines, [key]);
      await this.db.query(delOrder, [key]);
    });
  }
}
