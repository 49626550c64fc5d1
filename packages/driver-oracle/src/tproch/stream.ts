import type { TprochNewOrder, TprochRefreshOptions, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { OracleTarget } from '@sledge/protocol';
import { OracleQuerySession, type StreamLib, type StreamOraConnection } from '../engine/query-session.js';
import { arrayRows, oraKind } from '../engine/rows.js';
import { bindDefs, refreshColumns } from './columns.js';
import { oracleTprochSql, type OracleTprochSql } from './sqlfiles.js';

export { sendable, type StreamLib, type StreamOraConnection } from '../engine/query-session.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const ORDER_COLUMNS = refreshColumns('orders');
const LINE_COLUMNS = refreshColumns('lineitem');
const ORDER_KINDS = ORDER_COLUMNS.map(oraKind);
const LINE_KINDS = LINE_COLUMNS.map(oraKind);

/**
 * One TPROC-H stream on Oracle, as the TPROC-H user: the engine's query
 * session (FORCE PARALLEL QUERY, callTimeout, break(), EXPLAIN PLAN; see
 * engine/query-session.ts) named sledge-tproch-<n>, plus the refresh
 * functions. RF1 defers LINEITEM -> ORDERS in each transaction.
 */
export class OracleTprochStream extends OracleQuerySession implements TprochStream {
  constructor(
    conn: StreamOraConnection,
    lib: StreamLib,
    stream: number,
    private readonly sql: OracleTprochSql = oracleTprochSql,
  ) {
    super(conn, lib, `sledge-${stream}`);
  }

  /** Session setup on an open connection: tracing names, call timeout, degree of parallelism. */
  static async init(conn: StreamOraConnection, lib: StreamLib, o: TprochStreamOptions, sql: OracleTprochSql = oracleTprochSql): Promise<OracleTprochStream> {
    await OracleQuerySession.setup(conn, { name: `sledge-tproch-${o.stream}`, dop: o.dop, queryTimeoutSec: o.queryTimeoutSec });
    return new OracleTprochStream(conn, lib, o.stream, sql);
  }

  static async open(t: OracleTarget, o: TprochStreamOptions): Promise<OracleTprochStream> {
    const { conn, lib } = await OracleQuerySession.connect(t, { name: `sledge-tproch-${o.stream}`, dop: o.dop, queryTimeoutSec: o.queryTimeoutSec });
    return new OracleTprochStream(conn, lib, o.stream);
  }

  private async refresh<T>(items: readonly T[], o: TprochRefreshOptions, begin: () => Promise<void>, apply: (item: T) => Promise<void>): Promise<void> {
    let open = 0;
    try {
      for (const item of items) {
        // stopped() is asked once per order, before its trickle sleep.
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (open === 0) await begin();
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
    const defer = this.sql.get('refresh', 'defer_lineitem_order_fk');
    const insertOrder = this.sql.get('refresh', 'insert_order');
    const insertLine = this.sql.get('refresh', 'insert_lineitem');
    const defs = bindDefs(LINE_COLUMNS, this.lib);
    return this.refresh(
      orders,
      o,
      async () => {
        await this.conn.execute(defer);
      },
      async (ord) => {
        await this.conn.execute(insertOrder, arrayRows([ord.order], ORDER_KINDS)[0]!);
        if (ord.lineitems.length) await this.conn.executeMany(insertLine, arrayRows(ord.lineitems, LINE_KINDS), { bindDefs: defs, autoCommit: false });
      },
    );
  }

  oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const delLines = this.sql.get('refresh', 'delete_lineitem');
    const delOrder = this.sql.get('refresh', 'delete_order');
    return this.refresh(
      orderKeys,
      o,
      async () => undefined,
      async (key) => {
        await this.conn.execute(delLines, { orderkey: key });
        await this.conn.execute(delOrder, { orderkey: key });
      },
    );
  }
}
