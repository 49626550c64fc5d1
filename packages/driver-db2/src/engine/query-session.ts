import { performance } from 'node:perf_hooks';
import { checkInsertRows, rowsPerStatement, rowBatches, type QuerySession, type QuerySessionOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import type { Db2Target } from '@sledge/protocol';
import { SqlCatalog } from '@sledge/sql';
import { db2ConnectionString } from './config.js';
import { connectError } from './errors.js';
import { ibmDb, type IbmDatabase, type IbmParam } from './library.js';
import { renderPlan } from './plan.js';
import { cleanStatement, fillPlaceholders, identifier } from './sql-text.js';

/** The query session's statements, packages/sql/db2/engine/session.sql. */
export const DB2_SESSION_SQL = {
  session: [
    'session_degree', 'application_handle', 'set_client_applname', 'executing_activity', 'cancel_activity',
    'explain_tables_exist', 'create_explain_tables', 'explain', 'latest_instance', 'operators', 'streams', 'clear',
  ],
} as const;
export type Db2SessionSql = SqlCatalog<typeof DB2_SESSION_SQL>;
export const db2SessionSql: Db2SessionSql = new SqlCatalog('db2', 'engine', DB2_SESSION_SQL, { clean: cleanStatement, fill: fillPlaceholders });

/** ODBC statement attribute SQL_ATTR_QUERY_TIMEOUT (seconds), as ibm_db's climacros name it. */
export const SQL_ATTR_QUERY_TIMEOUT = 0;
/** ibm_db fetchMode for rows as arrays. */
export const FETCH_ARRAY = 3;

/** Parameter markers per statement: Db2's limit on host variable references. */
export const DB2_MAX_PARAMS = 32767;
/** Rows per multi-row INSERT (keeps a statement well under Db2's 2 MB text limit). */
export const DB2_MAX_INSERT_ROWS = 1000;

export type Row = readonly (string | number | null)[];

export interface IbmResult {
  fetchAll(option: { fetchMode: number }): Promise<unknown[]>;
  close(): Promise<unknown>;
}

export interface IbmStatement {
  setAttrSync(attr: number, value: number): unknown;
  execute(): Promise<IbmResult | [IbmResult, unknown]>;
  close(): Promise<unknown>;
}

/** The ibm_db Database calls a query session makes (a fake stands in for it in tests). */
export interface StreamDb extends IbmDatabase {
  prepare(sql: string): Promise<IbmStatement>;
}

/** Opens another connection to the same database (the side connection that cancels a session's statement). */
export type SideOpener = () => Promise<IbmDatabase>;

/** A statement as sent: no trailing comment lines and no trailing ';' or '@' terminator. */
export function sendable(sql: string): string {
  const lines = sql.trim().split(/\r?\n/);
  while (lines.length && (lines[lines.length - 1]!.trim() === '' || lines[lines.length - 1]!.trim().startsWith('--'))) lines.pop();
  return lines.join('\n').trim().replace(/[;@]\s*$/, '').trim();
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

const lower = (r: unknown): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  if (typeof r === 'object' && r !== null) for (const [k, v] of Object.entries(r)) out[k.toLowerCase()] = v;
  return out;
};

export async function rowsOf(db: IbmDatabase, sql: string, params: IbmParam[] = []): Promise<Record<string, unknown>[]> {
  const r = await db.query(sql, params);
  return Array.isArray(r) ? r.map(lower) : [];
}

/** Rows per INSERT for `columns` columns: within the parameter-marker limit and 1000 rows. */
export function rowsPerInsert(columns: number): number {
  return rowsPerStatement(columns, DB2_MAX_PARAMS, DB2_MAX_INSERT_ROWS);
}

/** `INSERT INTO t (a, b) VALUES (?, ?), (?, ?)...` for `n` rows: ordinary (validated, unquoted) names. */
export function insertSql(table: string, columns: readonly string[], n: number): string {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: n }, () => tuple).join(', ')}`;
}

/** How a session is set up: its client application name (none: left as the driver's), degree of parallelism. */
export interface Db2SessionSetup {
  applName?: string;
  dop: number;
}

/** Session options after setup: the EXPLAIN query numbers' base and the statement timeout. */
export interface Db2SessionOptions {
  /** EXPLAIN PLAN's QUERYNO is planBase + the query number. */
  planBase: number;
  queryTimeoutSec: number;
}

/**
 * A query session on Db2. DOP: SET CURRENT DEGREE 'n'. Timeout: the
 * statement attribute SQL_ATTR_QUERY_TIMEOUT on the prepared timed
 * statement (the CLI cancels it when it expires, SQL0952N). cancel(): ibm_db
 * has no SQLCancel, so a side connection looks up this application's
 * executing activity (MON_GET_ACTIVITY) and cancels it with
 * WLM_CANCEL_ACTIVITY (needs WLMADM or DBADM; the statement ends with
 * SQL4725N). EXPLAIN: EXPLAIN PLAN into the explain tables, read back and
 * printed as a tree (no db2exfmt). DATE values come back as ibm_db's
 * YYYY-MM-DD text. TPROC-H's stream extends it.
 */
export class Db2QuerySession implements QuerySession {
  private side: Promise<IbmDatabase> | undefined;

  constructor(
    protected readonly db: StreamDb,
    private readonly handle: number,
    private readonly o: Db2SessionOptions,
    private readonly openSide: SideOpener,
  ) {}

  /** Session setup on an open connection: client application name (best effort), degree of parallelism; returns the application handle. */
  static async setup(db: StreamDb, s: Db2SessionSetup): Promise<number> {
    if (s.applName !== undefined) {
      // Best effort, as for VU sessions: a server that refuses it still runs the queries, unnamed.
      await db.query(db2SessionSql.get('session', 'set_client_applname'), [s.applName]).catch(() => undefined);
    }
    await db.query(db2SessionSql.get('session', 'session_degree', { dop: Math.max(1, Math.trunc(s.dop)) }));
    const rows = await rowsOf(db, db2SessionSql.get('session', 'application_handle'));
    return Number(rows[0]?.['handle'] ?? 0);
  }

  /** Connect to the target's database; the opener is also the side connection's. */
  static opener(t: Db2Target): SideOpener {
    const lib = ibmDb();
    return async () => {
      try {
        return await lib.open(db2ConnectionString(t));
      } catch (e) {
        throw connectError(e, t);
      }
    };
  }

  /** Run the timed statement prepared, with the query timeout, fetching rows as arrays. */
  private async timed(sql: string): Promise<unknown[][]> {
    const stmt = await this.db.prepare(sql);
    try {
      if (this.o.queryTimeoutSec > 0) stmt.setAttrSync(SQL_ATTR_QUERY_TIMEOUT, this.o.queryTimeoutSec);
      const executed = await stmt.execute();
      const result = Array.isArray(executed) ? executed[0] : executed;
      try {
        return (await result.fetchAll({ fetchMode: FETCH_ARRAY })) as unknown[][];
      } finally {
        await result.close().catch(() => undefined);
      }
    } finally {
      await stmt.close().catch(() => undefined);
    }
  }

  async query(q: StreamQueryText, o: { fetch?: boolean } = {}): Promise<StreamQueryRun> {
    const { before, timed, after } = split(q);
    for (const s of before) await this.db.query(s);
    try {
      const t0 = performance.now();
      const rows = await this.timed(timed);
      const ms = performance.now() - t0;
      return { rows: rows.length, ms, ...(o.fetch ? { data: rows } : {}) };
    } finally {
      for (const s of after) await this.db.query(s);
    }
  }

  async explain(q: StreamQueryText): Promise<string> {
    const { before, timed, after } = split(q);
    const queryno = this.o.planBase + q.query;
    const sql = (name: (typeof DB2_SESSION_SQL.session)[number]) => db2SessionSql.get('session', name);
    const exists = await rowsOf(this.db, sql('explain_tables_exist'));
    if (Number(exists[0]?.['n'] ?? 0) === 0) await this.db.query(sql('create_explain_tables'));
    for (const s of before) await this.db.query(s);
    try {
      const text = sql('explain').replace('{{queryno}}', String(queryno)).replace('{{sql}}', () => timed);
      await this.db.query(text);
      const inst = await rowsOf(this.db, sql('latest_instance'), [queryno]);
      const when = inst[0]?.['explain_time'];
      if (when === undefined || when === null) return '';
      const ops = await rowsOf(this.db, sql('operators'), [when as string]);
      const streams = await rowsOf(this.db, sql('streams'), [when as string]);
      await this.db.query(sql('clear'), [when as string]);
      return renderPlan(
        ops.map((r) => ({ id: Number(r['id']), type: String(r['type']), cost: Number(r['cost']) })),
        streams.map((r) => ({
          sourceType: String(r['source_type']).trim(),
          sourceId: Number(r['source_id']),
          targetId: Number(r['target_id']),
          rows: Number(r['row_count']),
          objectName: r['object_name'] === null || r['object_name'] === undefined ? null : String(r['object_name']),
        })),
      );
    } finally {
      for (const s of after) await this.db.query(s);
    }
  }

  /** One statement, autocommit (ibm_db's default outside beginTransaction). */
  async exec(sql: string): Promise<void> {
    await this.db.query(sendable(sql));
  }

  /** Multi-row INSERTs with parameter markers (at most 1000 rows and 32767 markers each), in one transaction. */
  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    checkInsertRows(table, columns, rows, identifier);
    if (rows.length === 0) return;
    const per = rowsPerInsert(columns.length);
    let full: string | undefined;
    await this.db.beginTransaction();
    try {
      for (const { rows: batch, full: isFull } of rowBatches(rows, per)) {
        const text = isFull ? (full ??= insertSql(table, columns, per)) : insertSql(table, columns, batch.length);
        await this.db.query(text, batch.flat() as IbmParam[]);
      }
      await this.db.commitTransaction();
    } catch (e) {
      await this.db.rollbackTransaction().catch(() => undefined);
      throw e;
    }
  }

  async cancel(): Promise<void> {
    if (!this.side) {
      this.side = this.openSide();
      this.side.catch(() => (this.side = undefined));
    }
    const side = await this.side;
    const act = await rowsOf(side, db2SessionSql.get('session', 'executing_activity'), [this.handle]);
    if (!act[0]) return;
    await side.query(db2SessionSql.get('session', 'cancel_activity'), [this.handle, Number(act[0]['uow_id']), Number(act[0]['activity_id'])]);
  }

  async close(): Promise<void> {
    const side = this.side;
    this.side = undefined;
    await side?.then((s) => (s.connected ? s.close() : undefined)).catch(() => undefined);
    if (this.db.connected) await this.db.close();
  }
}

/** EXPLAIN query numbers of a query session: 10000 + 100 x its name's trailing number (chbench-2: 10200 + q). */
export function planBaseOf(name: string): number {
  const n = /(\d+)$/.exec(name);
  return 10000 + (n ? (Number(n[1]) % 1000) * 100 : 0);
}

/** Driver.openQuerySession: a session whose client application name is sledge-<opts.name>. */
export async function openDb2QuerySession(t: Db2Target, opts: QuerySessionOptions): Promise<QuerySession> {
  const open = Db2QuerySession.opener(t);
  const db = (await open()) as StreamDb;
  try {
    const handle = await Db2QuerySession.setup(db, { applName: `sledge-${opts.name}`, dop: opts.dop });
    return new Db2QuerySession(db, handle, { planBase: planBaseOf(opts.name), queryTimeoutSec: opts.queryTimeoutSec }, open);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
}
