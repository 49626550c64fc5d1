import { performance } from 'node:perf_hooks';
import { checkInsertRows, rowsPerStatement, rowBatches, rowsWithDateText, type QuerySession, type QuerySessionOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { SqlCatalog } from '@sledge/sql';
import { cleanStatement, fillPlaceholders, identifier } from './sql-text.js';
import { TediousStreamConn, type StreamConn, type StreamOpenOptions, type TdsParam } from './tds.js';

/** The query session's statements, packages/sql/mssql/engine/session.sql. */
export const MSSQL_SESSION_SQL = { session: ['maxdop_option', 'showplan_on', 'showplan_off'] } as const;
export type MssqlSessionSql = SqlCatalog<typeof MSSQL_SESSION_SQL>;
export const mssqlSessionSql: MssqlSessionSql = new SqlCatalog('mssql', 'engine', MSSQL_SESSION_SQL, { clean: cleanStatement, fill: fillPlaceholders });

/**
 * Parameters per request: SQL Server takes at most 2100 per RPC, and
 * sp_executesql (how tedious sends a parameterised statement) uses two of
 * them for the statement and its parameter list.
 */
export const MSSQL_MAX_PARAMS = 2098;
/** Rows per table value constructor (VALUES (...), (...)): SQL Server's limit. */
export const MSSQL_MAX_VALUES_ROWS = 1000;

export type Row = readonly (string | number | null)[];

/** A statement as sent: no trailing ';' and no trailing comment lines (so an appended OPTION clause is not commented out). */
export function sendable(sql: string): string {
  const lines = sql.trim().split(/\r?\n/);
  while (lines.length && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trim().startsWith('--'))) lines.pop();
  return lines.join('\n').trim().replace(/;\s*$/, '').trim();
}

/** The timed select with the session's degree of parallelism: `OPTION (MAXDOP n)` appended (session.sql maxdop_option). */
export function withMaxdop(sql: string, dop: number): string {
  return `${sendable(sql)}\n${mssqlSessionSql.get('session', 'maxdop_option', { dop: Math.max(0, Math.trunc(dop)) })}`;
}

/** Where the timed statement is, and the statements around it (Q15: create view before, drop view after). */
function split(q: StreamQueryText): { before: string[]; timed: string; after: string[] } {
  const at = q.statements.findIndex((s) => s.timed);
  if (at < 0 || q.statements.filter((s) => s.timed).length !== 1) throw new Error(`query ${q.query} must have exactly one timed statement`);
  return {
    before: q.statements.slice(0, at).map((s) => sendable(s.sql)),
    timed: q.statements[at]!.sql,
    after: q.statements.slice(at + 1).map((s) => sendable(s.sql)),
  };
}

/** Rows per INSERT for `columns` columns: within the parameter limit and 1000 rows. */
export function rowsPerInsert(columns: number): number {
  return rowsPerStatement(columns, MSSQL_MAX_PARAMS, MSSQL_MAX_VALUES_ROWS);
}

/** A bracket-quoted identifier (] doubled). */
export const quoteIdent = (name: string): string => `[${name.replace(/]/g, ']]')}]`;

/** `INSERT INTO [t] ([a],[b]) VALUES (@p0,@p1),(@p2,@p3)...` for `n` rows. */
export function insertSql(table: string, columns: readonly string[], n: number): string {
  const k = columns.length;
  const tuples = Array.from({ length: n }, (_, r) => `(${columns.map((_c, j) => `@p${r * k + j}`).join(',')})`);
  return `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(',')}) VALUES ${tuples.join(',')}`;
}

/** A value as a tedious parameter: integers int (bigint past 32 bits), other numbers float, text varchar (the server converts to the column's type). */
export function valueParam(name: string, v: string | number | null): TdsParam {
  if (typeof v === 'number') return { name, type: Number.isInteger(v) ? (Math.abs(v) < 2 ** 31 ? 'int' : 'bigint') : 'float', value: v };
  return { name, type: 'varchar', value: v };
}

/** The parameters of one batch of rows, @p0.. in row order. */
export function batchParams(rows: readonly Row[]): TdsParam[] {
  const out: TdsParam[] = [];
  for (const r of rows) for (const v of r) out.push(valueParam(`p${out.length}`, v));
  return out;
}

/** A query session's connection: the target's database, program name (appName), the query timeout as tedious requestTimeout. */
export function sessionOpenOptions(t: MssqlTarget, appName: string, queryTimeoutSec: number): StreamOpenOptions {
  return { database: identifier(t.database, 'target.database'), appName, requestTimeoutMs: Math.max(0, queryTimeoutSec) * 1000 };
}

/**
 * A query session on SQL Server. DOP: OPTION (MAXDOP n) on the timed
 * select (and on the plan). Timeout: tedious requestTimeout, which cancels
 * the request when it expires (ETIMEOUT; it applies to every request of
 * the session). cancel(): a TDS attention on this connection (ECANCEL).
 * EXPLAIN: SET SHOWPLAN_TEXT ON in its own batch, the query (planned, not
 * run), SET SHOWPLAN_TEXT OFF. DATE values come back as YYYY-MM-DD text.
 * TPROC-H's stream extends it.
 */
export class MssqlQuerySession implements QuerySession {
  constructor(
    protected readonly conn: StreamConn,
    private readonly dop: number,
  ) {}

  async query(q: StreamQueryText, o: { fetch?: boolean } = {}): Promise<StreamQueryRun> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.conn.exec(s);
    try {
      const t0 = performance.now();
      const rows = await this.conn.rows(withMaxdop(timed, this.dop));
      const ms = performance.now() - t0;
      // tedious (useUTC) makes a Date at UTC midnight of a DATE: kept as its YYYY-MM-DD text.
      return { rows: rows.length, ms, ...(o.fetch ? { data: rowsWithDateText(rows, 'utc') } : {}) };
    } finally {
      for (const s of after) await this.conn.exec(s);
    }
  }

  async explain(q: StreamQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.conn.exec(s);
    try {
      await this.conn.exec(mssqlSessionSql.get('session', 'showplan_on'));
      try {
        const rows = await this.conn.rows(withMaxdop(timed, this.dop));
        return rows.map((r) => String(r[0] ?? '')).join('\n');
      } finally {
        await this.conn.exec(mssqlSessionSql.get('session', 'showplan_off'));
      }
    } finally {
      for (const s of after) await this.conn.exec(s);
    }
  }

  /** One statement as its own batch, autocommit. */
  async exec(sql: string): Promise<void> {
    await this.conn.exec(sendable(sql));
  }

  /** Multi-row INSERTs (at most 1000 rows and 2098 parameters each), in one transaction. */
  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    checkInsertRows(table, columns, rows);
    if (rows.length === 0) return;
    const per = rowsPerInsert(columns.length);
    let full: string | undefined;
    await this.conn.begin();
    try {
      for (const { rows: batch, full: isFull } of rowBatches(rows, per)) {
        const text = isFull ? (full ??= insertSql(table, columns, per)) : insertSql(table, columns, batch.length);
        await this.conn.exec(text, batchParams(batch));
      }
      await this.conn.commit();
    } catch (e) {
      await this.conn.rollback().catch(() => undefined);
      throw e;
    }
  }

  cancel(): Promise<void> {
    return this.conn.cancel();
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

/** Driver.openQuerySession: a session whose program name is sledge-<opts.name>. */
export async function openMssqlQuerySession(t: MssqlTarget, opts: QuerySessionOptions): Promise<QuerySession> {
  const conn = await TediousStreamConn.open(t, sessionOpenOptions(t, `sledge-${opts.name}`, opts.queryTimeoutSec));
  return new MssqlQuerySession(conn, opts.dop);
}
