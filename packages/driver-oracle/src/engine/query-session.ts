import { performance } from 'node:perf_hooks';
import { checkInsertRows, rowBatches, rowsWithDateText, type QuerySession, type QuerySessionOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import { SledgeError, type OracleTarget } from '@sledge/protocol';
import { SqlCatalog } from '@sledge/sql';
import { oracleConnectAttrs } from './config.js';
import { connectError } from './errors.js';
import { oracledb, type OraBindDef, type OraResult } from './library.js';
import { arrayRows, oraKind, type OraColumn } from './rows.js';
import { cleanStatement, fillPlaceholders, identifier } from './sql-text.js';

/** The query session's statements, packages/sql/oracle/engine/session.sql. */
export const ORACLE_SESSION_SQL = { session: ['session_parallel', 'column_types', 'explain', 'display', 'clear'] } as const;
export type OracleSessionSql = SqlCatalog<typeof ORACLE_SESSION_SQL>;
export const oracleSessionSql: OracleSessionSql = new SqlCatalog('oracle', 'engine', ORACLE_SESSION_SQL, { clean: cleanStatement, fill: fillPlaceholders });

/** Rows per executeMany call of insertRows. */
export const INSERT_BATCH_ROWS = 5000;
/** DATE columns take 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' text through TO_DATE, independent of NLS settings. */
export const SESSION_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS';

export type Row = readonly (string | number | null)[];

/** The node-oracledb connection calls a query session makes (a fake stands in for it in tests). */
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

/** What the session needs from the library besides the connection. */
export interface StreamLib {
  OUT_FORMAT_ARRAY: number;
  OUT_FORMAT_OBJECT?: number;
  NUMBER: unknown;
  STRING: unknown;
}

/** A statement as sent: no trailing comment lines and no trailing ';' (Oracle refuses it outside PL/SQL). */
export function sendable(sql: string): string {
  const lines = sql.trim().split(/\r?\n/);
  while (lines.length && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trim().startsWith('--'))) lines.pop();
  return lines.join('\n').trim().replace(/;\s*$/, '').trim();
}

function split(q: StreamQueryText): { before: string[]; timed: string; after: string[] } {
  const at = q.statements.findIndex((s) => s.timed);
  if (at < 0 || q.statements.filter((s) => s.timed).length !== 1) throw new Error(`query ${q.query} must have exactly one timed statement`);
  return {
    before: q.statements.slice(0, at).map((s) => sendable(s.sql)),
    timed: sendable(q.statements[at]!.sql),
    after: q.statements.slice(at + 1).map((s) => sendable(s.sql)),
  };
}

/** The array-DML INSERT: unquoted (validated) names, positional binds, DATE columns through TO_DATE. */
export function insertSql(table: string, columns: readonly OraColumn[]): string {
  const values = columns.map((c, i) => (oraKind(c) === 'date' ? `TO_DATE(:${i + 1}, '${SESSION_DATE_FORMAT}')` : `:${i + 1}`));
  return `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES (${values.join(', ')})`;
}

/** executeMany bind definitions: NUMBER for numbers, STRING sized by the column for text, 19 for dates. */
export function bindDefs(columns: readonly OraColumn[], types: { NUMBER: unknown; STRING: unknown }): OraBindDef[] {
  return columns.map((c) => {
    switch (oraKind(c)) {
      case 'number':
        return { type: types.NUMBER };
      case 'string':
        return { type: types.STRING, maxSize: c.maxLength };
      case 'date':
        return { type: types.STRING, maxSize: 19 };
    }
  });
}

/** How a session is set up: its name (MODULE, CLIENT_IDENTIFIER), degree of parallelism and call timeout. */
export interface OraSessionSetup {
  name: string;
  dop: number;
  queryTimeoutSec: number;
}

/**
 * A query session on Oracle, as the target's user. DOP: ALTER SESSION
 * FORCE PARALLEL QUERY PARALLEL n. Timeout: node-oracledb callTimeout (the
 * round trip is interrupted, DPI-1067; it applies to every call).
 * cancel(): connection.break(), which makes the running call fail with
 * ORA-01013. EXPLAIN: EXPLAIN PLAN + DBMS_XPLAN.DISPLAY under a statement
 * id `<name>-q<n>`. DATE values come back as YYYY-MM-DD text. TPROC-H's
 * stream extends it.
 */
export class OracleQuerySession implements QuerySession {
  constructor(
    protected readonly conn: StreamOraConnection,
    protected readonly lib: StreamLib,
    /** Prefix of the EXPLAIN PLAN statement ids. */
    private readonly planId: string,
  ) {}

  /** Session setup on an open connection: tracing names, call timeout, degree of parallelism. */
  static async setup(conn: StreamOraConnection, s: OraSessionSetup): Promise<void> {
    conn.module = s.name;
    conn.clientId = s.name;
    conn.callTimeout = Math.max(0, s.queryTimeoutSec) * 1000;
    await conn.execute(oracleSessionSql.get('session', 'session_parallel', { dop: Math.max(1, Math.trunc(s.dop)) }));
  }

  /** Connect as the target's user and set the session up; the connection is closed when that fails. */
  static async connect(t: OracleTarget, s: OraSessionSetup): Promise<{ conn: StreamOraConnection; lib: StreamLib }> {
    const lib = oracledb();
    let conn: StreamOraConnection;
    try {
      conn = (await lib.getConnection(oracleConnectAttrs(t, 'user', lib.SYSDBA))) as unknown as StreamOraConnection;
    } catch (e) {
      throw connectError(e, { target: t, role: 'user' });
    }
    try {
      await OracleQuerySession.setup(conn, s);
      return { conn, lib: lib as unknown as StreamLib };
    } catch (e) {
      await conn.close().catch(() => undefined);
      throw e;
    }
  }

  async query(q: StreamQueryText, o: { fetch?: boolean } = {}): Promise<StreamQueryRun> {
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

  async explain(q: StreamQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    const id = `${this.planId}-q${q.query}`;
    for (const s of before) await this.conn.execute(s);
    try {
      const text = oracleSessionSql.get('session', 'explain').replace('{{id}}', () => id).replace('{{sql}}', () => timed);
      await this.conn.execute(text);
      const r = await this.conn.execute(oracleSessionSql.get('session', 'display'), { id }, { outFormat: this.lib.OUT_FORMAT_ARRAY });
      await this.conn.execute(oracleSessionSql.get('session', 'clear'), { id });
      await this.conn.commit();
      return ((r.rows ?? []) as unknown[][]).map((row) => String(row[0] ?? '')).join('\n');
    } finally {
      for (const s of after) await this.conn.execute(s);
    }
  }

  /** One statement, committed. */
  async exec(sql: string): Promise<void> {
    await this.conn.execute(sendable(sql), [], { autoCommit: true });
  }

  /** The table's column types (user_tab_columns), in `columns` order; a missing table or column is a typed error. */
  private async columnTypes(table: string, columns: readonly string[]): Promise<OraColumn[]> {
    const r = await this.conn.execute(oracleSessionSql.get('session', 'column_types'), { table_name: table }, { outFormat: this.lib.OUT_FORMAT_ARRAY });
    const byName = new Map(
      ((r.rows ?? []) as unknown[][]).map(([name, typeName, maxLength, nullable]) => [String(name), { name: String(name), typeName: String(typeName), maxLength: Number(maxLength), nullable: nullable === 'Y' }]),
    );
    if (byName.size === 0) throw new SledgeError('SLEDGE_E_VALIDATION', `insertRows: table ${table} does not exist for this user`, { field: 'table' });
    return columns.map((c) => {
      const col = byName.get(c.toLowerCase());
      if (!col) throw new SledgeError('SLEDGE_E_VALIDATION', `insertRows: table ${table} has no column ${c}`, { field: 'columns' });
      return col;
    });
  }

  /** Array DML (executeMany, 5000 rows a call) with bind types from the table's columns, in one transaction. */
  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    checkInsertRows(table, columns, rows, identifier);
    if (rows.length === 0) return;
    const cols = await this.columnTypes(table, columns);
    const sql = insertSql(table, cols);
    const kinds = cols.map(oraKind);
    const defs = bindDefs(cols, this.lib);
    try {
      for (const { rows: batch } of rowBatches(rows, INSERT_BATCH_ROWS)) {
        await this.conn.executeMany(sql, arrayRows(batch, kinds), { bindDefs: defs, autoCommit: false });
      }
      await this.conn.commit();
    } catch (e) {
      await this.conn.rollback().catch(() => undefined);
      throw e;
    }
  }

  cancel(): Promise<void> {
    return this.conn.break();
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

/** Driver.openQuerySession: a session whose MODULE and CLIENT_IDENTIFIER are sledge-<opts.name>. */
export async function openOracleQuerySession(t: OracleTarget, opts: QuerySessionOptions): Promise<QuerySession> {
  const name = `sledge-${opts.name}`;
  const { conn, lib } = await OracleQuerySession.connect(t, { name, dop: opts.dop, queryTimeoutSec: opts.queryTimeoutSec });
  return new OracleQuerySession(conn, lib, name);
}
