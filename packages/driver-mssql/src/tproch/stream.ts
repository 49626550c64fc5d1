import { rowsWithDateText, type TprochNewOrder, type TprochQueryRun, type TprochQueryText, type TprochRefreshOptions, type TprochStream, type TprochStreamOptions } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { identifier } from '../tprocc/sqlfiles.js';
import { rowParams } from './columns.js';
import { mssqlTprochSql, type MssqlTprochSql } from './sqlfiles.js';
import { TediousStreamConn, type StreamConn, type StreamOpenOptions } from './tds.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A statement as sent: no trailing ';' and no trailing comment lines (so an appended OPTION clause is not commented out). */
export function sendable(sql: string): string {
  const lines = sql.trim().split(/\r?\n/);
  while (lines.length && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trim().startsWith('--'))) lines.pop();
  return lines.join('\n').trim().replace(/;\s*$/, '').trim();
}

/** The timed select with the stream's degree of parallelism: `OPTION (MAXDOP n)` appended (admin.sql maxdop_option). */
export function withMaxdop(sql: string, dop: number, lib: MssqlTprochSql = mssqlTprochSql): string {
  return `${sendable(sql)}\n${lib.get('admin', 'maxdop_option', { dop: Math.max(0, Math.trunc(dop)) })}`;
}

/** A stream's connection: the TPROC-H database, program name sledge-tproch-<stream>, the query timeout as tedious requestTimeout. */
export function streamOpenOptions(t: MssqlTarget, o: TprochStreamOptions): StreamOpenOptions {
  return {
    database: identifier(t.database, 'target.database'),
    appName: `sledge-tproch-${o.stream}`,
    requestTimeoutMs: Math.max(0, o.queryTimeoutSec) * 1000,
  };
}

/** Where the timed statement is, and the statements around it (Q15: create view before, drop view after). */
function split(q: TprochQueryText): { before: string[]; timed: string; after: string[] } {
  const at = q.statements.findIndex((s) => s.timed);
  if (at < 0 || q.statements.filter((s) => s.timed).length !== 1) throw new Error(`query ${q.query} must have exactly one timed statement`);
  return {
    before: q.statements.slice(0, at).map((s) => sendable(s.sql)),
    timed: q.statements[at]!.sql,
    after: q.statements.slice(at + 1).map((s) => sendable(s.sql)),
  };
}

/**
 * One TPROC-H stream on SQL Server. DOP: OPTION (MAXDOP n) on the timed
 * select (and on the plan). Timeout: tedious requestTimeout, which cancels
 * the request when it expires. cancel(): a TDS attention on this
 * connection. EXPLAIN: SET SHOWPLAN_TEXT ON in its own batch, the query
 * (planned, not run), SET SHOWPLAN_TEXT OFF.
 */
export class MssqlTprochStream implements TprochStream {
  constructor(
    private readonly conn: StreamConn,
    private readonly dop: number,
    private readonly lib: MssqlTprochSql = mssqlTprochSql,
  ) {}

  static async open(t: MssqlTarget, o: TprochStreamOptions): Promise<MssqlTprochStream> {
    const conn = await TediousStreamConn.open(t, streamOpenOptions(t, o));
    return new MssqlTprochStream(conn, o.dop);
  }

  async query(q: TprochQueryText, o: { fetch?: boolean } = {}): Promise<TprochQueryRun> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.conn.exec(s);
    try {
      const t0 = performance.now();
      const rows = await this.conn.rows(withMaxdop(timed, this.dop, this.lib));
      const ms = performance.now() - t0;
      // tedious (useUTC) makes a Date at UTC midnight of a DATE: kept as its YYYY-MM-DD text.
      return { rows: rows.length, ms, ...(o.fetch ? { data: rowsWithDateText(rows, 'utc') } : {}) };
    } finally {
      for (const s of after) await this.conn.exec(s);
    }
  }

  async explain(q: TprochQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.conn.exec(s);
    try {
      await this.conn.exec(this.lib.get('explain', 'showplan_on'));
      try {
        const rows = await this.conn.rows(withMaxdop(timed, this.dop, this.lib));
        return rows.map((r) => String(r[0] ?? '')).join('\n');
      } finally {
        await this.conn.exec(this.lib.get('explain', 'showplan_off'));
      }
    } finally {
      for (const s of after) await this.conn.exec(s);
    }
  }

  cancel(): Promise<void> {
    return this.conn.cancel();
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

  close(): Promise<void> {
    return this.conn.close();
  }
}
