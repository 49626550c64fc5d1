import { rowsWithDateText, type TprochNewOrder, type TprochQueryRun, type TprochQueryText, type TprochRefreshOptions, type TprochStream, type TprochStreamOptions } from '@sledge/core';
import type { OracleTarget } from '@sledge/protocol';
import { oracleConnectAttrs } from '../engine/config.js';
import { connectError } from '../engine/errors.js';
import { oracledb, type OraBindDef, type OraResult } from '../engine/library.js';
import { arrayRows, oraKind } from '../engine/rows.js';
import { bindDefs, refreshColumns } from './columns.js';
import { oracleTprochSql, type OracleTprochSql } from './sqlfiles.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The node-oracledb connection calls a stream makes (a fake stands in for it in tests). */
export interface StreamOraConnection {
  execute(sql: string, binds?: unknown[] | Record<string, unknown>, options?: { outFormat?: number; autoCommit?: boolean }): Promise<OraResult>;
  executeMany(sql: string, rows: unknown[][], options: { bindDefs: OraBindDef[]; autoCommit?: boolean }): Promise<{ rowsAffected?: number }>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Interrupt the call running on this connection (it fails with ORA-01013). */
  break(): Promise<void>;
  close(): Promise<void>;
  callTimeout?: number;
  clientId?: string;
  module?: string;
}

/** What the stream needs from the library besides the connection. */
export interface StreamLib {
  OUT_FORMAT_ARRAY: number;
  NUMBER: unknown;
  STRING: unknown;
}

/** A statement as sent: no trailing comment lines and no trailing ';' (Oracle refuses it outside PL/SQL). */
export function sendable(sql: string): string {
  const lines = sql.trim().split(/\r?\n/);
  while (lines.length && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trim().startsWith('--'))) lines.pop();
  return lines.join('\n').trim().replace(/;\s*$/, '').trim();
}

function split(q: TprochQueryText): { before: string[]; timed: string; after: string[] } {
  const at = q.statements.findIndex((s) => s.timed);
  if (at < 0 || q.statements.filter((s) => s.timed).length !== 1) throw new Error(`query ${q.query} must have exactly one timed statement`);
  return {
    before: q.statements.slice(0, at).map((s) => sendable(s.sql)),
    timed: sendable(q.statements[at]!.sql),
    after: q.statements.slice(at + 1).map((s) => sendable(s.sql)),
  };
}

const ORDER_COLUMNS = refreshColumns('orders');
const LINE_COLUMNS = refreshColumns('lineitem');
const ORDER_KINDS = ORDER_COLUMNS.map(oraKind);
const LINE_KINDS = LINE_COLUMNS.map(oraKind);

/**
 * One TPROC-H stream on Oracle, as the TPROC-H user. DOP: ALTER SESSION
 * FORCE PARALLEL QUERY PARALLEL n. Timeout: node-oracledb callTimeout (the
 * round trip is interrupted, ORA-03156 / DPI-1067). cancel():
 * connection.break(), which makes the running call fail with ORA-01013.
 * EXPLAIN: EXPLAIN PLAN + DBMS_XPLAN.DISPLAY. RF1 defers LINEITEM -> ORDERS
 * in each transaction.
 */
export class OracleTprochStream implements TprochStream {
  constructor(
    private readonly conn: StreamOraConnection,
    private readonly lib: StreamLib,
    private readonly stream: number,
    private readonly sql: OracleTprochSql = oracleTprochSql,
  ) {}

  /** Session setup on an open connection: tracing names, call timeout, degree of parallelism. */
  static async init(conn: StreamOraConnection, lib: StreamLib, o: TprochStreamOptions, sql: OracleTprochSql = oracleTprochSql): Promise<OracleTprochStream> {
    conn.module = `sledge-tproch-${o.stream}`;
    conn.clientId = `sledge-tproch-${o.stream}`;
    conn.callTimeout = Math.max(0, o.queryTimeoutSec) * 1000;
    await conn.execute(sql.get('admin', 'stream_parallel', { dop: Math.max(1, Math.trunc(o.dop)) }));
    return new OracleTprochStream(conn, lib, o.stream, sql);
  }

  static async open(t: OracleTarget, o: TprochStreamOptions): Promise<OracleTprochStream> {
    const lib = oracledb();
    let conn: StreamOraConnection;
    try {
      conn = (await lib.getConnection(oracleConnectAttrs(t, 'user', lib.SYSDBA))) as unknown as StreamOraConnection;
    } catch (e) {
      throw connectError(e, { target: t, role: 'user' });
    }
    try {
      return await OracleTprochStream.init(conn, lib as unknown as StreamLib, o);
    } catch (e) {
      await conn.close().catch(() => undefined);
      throw e;
    }
  }

  async query(q: TprochQueryText, o: { fetch?: boolean } = {}): Promise<TprochQueryRun> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.conn.execute(s);
    try {
      const t0 = performance.now();
      const r = await this.conn.execute(timed, [], { outFormat: this.lib.OUT_FORMAT_ARRAY });
      const ms = performance.now() - t0;
      const rows = (r.rows ?? []) as unknown[][];
      // node-oracledb makes a Date at the process's local midnight of a DATE: kept as its YYYY-MM-DD text.
      return { rows: rows.length, ms, ...(o.fetch ? { data: rowsWithDateText(rows, 'local') } : {}) };
    } finally {
      for (const s of after) await this.conn.execute(s);
    }
  }

  async explain(q: TprochQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    const id = `sledge-${this.stream}-q${q.query}`;
    for (const s of before) await this.conn.execute(s);
    try {
      const text = this.sql.get('explain', 'explain').replace('{{id}}', () => id).replace('{{sql}}', () => timed);
      await this.conn.execute(text);
      const r = await this.conn.execute(this.sql.get('explain', 'display'), { id }, { outFormat: this.lib.OUT_FORMAT_ARRAY });
      await this.conn.execute(this.sql.get('explain', 'clear'), { id });
      await this.conn.commit();
      return ((r.rows ?? []) as unknown[][]).map((row) => String(row[0] ?? '')).join('\n');
    } finally {
      for (const s of after) await this.conn.execute(s);
    }
  }

  cancel(): Promise<void> {
    return this.conn.break();
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

  close(): Promise<void> {
    return this.conn.close();
  }
}
