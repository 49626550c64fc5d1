import { performance } from 'node:perf_hooks';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { checkInsertRows, rowsPerStatement, rowBatches, type Logger, type QuerySession, type QuerySessionOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import { sqlSet } from '@sledge/sql';
import { connect } from './connect.js';
import type { Flavour, MyTarget } from './flavour.js';
import { dropCommentLines, quoteIdent } from './sql-text.js';

type SessionFile = 'session.sql';
const sets = new Map<string, ReturnType<typeof sqlSet<SessionFile>>>();

/** packages/sql/<engine>/engine/session.sql (MariaDB: MySQL's) without comment lines. */
export function sessionStatement(flavour: Flavour, name: string): string {
  let set = sets.get(flavour.engine);
  if (!set) {
    set = sqlSet<SessionFile>(flavour.engine, 'engine', { clean: dropCommentLines });
    sets.set(flavour.engine, set);
  }
  return set.statement('session.sql', name);
}

/** Placeholders per prepared statement: the protocol's limit (a 16-bit count). */
export const MY_MAX_PARAMS = 65535;

type Statement = StreamQueryText['statements'][number];
export type Row = readonly (string | number | null)[];

/** The statements around the timed one: before (Q15's create view) and after (drop view). */
export function splitQuery(q: StreamQueryText): { before: Statement[]; timed: Statement; after: Statement[] } {
  const i = q.statements.findIndex((s) => s.timed);
  if (i < 0) throw new Error(`query ${q.query} has no timed statement`);
  return { before: q.statements.slice(0, i), timed: q.statements[i]!, after: q.statements.slice(i + 1) };
}

/** Rows per INSERT for `columns` columns: as many as the placeholder limit allows. */
export function rowsPerInsert(columns: number, maxParams = MY_MAX_PARAMS): number {
  return rowsPerStatement(columns, maxParams);
}

/** `INSERT INTO `t` (`a`,`b`) VALUES (?,?),(?,?)...` for `n` rows. */
export function insertSql(table: string, columns: readonly string[], n: number): string {
  const tuple = `(${columns.map(() => '?').join(',')})`;
  return `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(',')}) VALUES ${Array.from({ length: n }, () => tuple).join(',')}`;
}

/** EXPLAIN's rows as a text table: a header line and one line per row, columns padded. */
export function explainText(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const cell = (v: unknown) => (v === null || v === undefined ? 'NULL' : String(v));
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(width[i]!)).join(' | ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

/** How a query session connects: its connection attributes and statement timeout. */
export interface MySessionSetup {
  /** sledge_role connection attribute (TPROC-H streams: sledge-tproch-<n>). */
  role?: string;
  /** program_name connection attribute (default 'sledge'). */
  programName?: string;
  queryTimeoutSec: number;
  log: Logger;
}

/** A connected session: the connection (timeout set, target.database its default) and its id. */
export interface MySessionConnection {
  c: Connection;
  id: number;
}

/**
 * Connect to the target's database with the statement timeout set: MySQL
 * max_execution_time in ms (SELECTs only: error 3024), MariaDB
 * max_statement_time in s (every statement: error 1969).
 */
export async function connectQuerySession(t: MyTarget, flavour: Flavour, s: MySessionSetup): Promise<MySessionConnection> {
  const c = await connect(t, flavour, { useDatabase: true, ...(s.role !== undefined ? { role: s.role } : {}), ...(s.programName !== undefined ? { programName: s.programName } : {}) });
  try {
    const secs = Math.max(0, s.queryTimeoutSec);
    // A new session has no limit: the setting is sent only when there is one.
    if (secs > 0) {
      if (flavour.engine === 'mariadb') await c.query(sessionStatement(flavour, 'session_timeout_mariadb'), [secs]);
      else await c.query(sessionStatement(flavour, 'session_timeout_mysql'), [secs * 1000]);
    }
    const [rows] = await c.query<RowDataPacket[]>(sessionStatement(flavour, 'connection_id'));
    return { c, id: Number(rows[0]!['id']) };
  } catch (e) {
    await c.end().catch(() => undefined);
    throw e;
  }
}

/**
 * A query session on MySQL or MariaDB. The statement timeout is the
 * server's (see connectQuerySession). cancel() sends KILL QUERY for this
 * connection's id from a second connection, opened on first use. Neither
 * engine has a per-session degree of parallelism: dop is not used. DATE
 * values come back as 'YYYY-MM-DD' text (dateStrings). TPROC-H's stream
 * extends it.
 */
export class MyQuerySession implements QuerySession {
  private killer: Promise<Connection> | undefined;
  private busy = false;

  constructor(
    protected readonly c: Connection,
    private readonly id: number,
    private readonly t: MyTarget,
    protected readonly flavour: Flavour,
    private readonly setup: MySessionSetup,
  ) {}

  async query(q: StreamQueryText, o: { fetch?: boolean } = {}): Promise<StreamQueryRun> {
    const { before, timed, after } = splitQuery(q);
    this.busy = true;
    try {
      for (const s of before) await this.c.query(s.sql);
      const t0 = performance.now();
      let rows: unknown[][];
      try {
        const [r] = await this.c.query<RowDataPacket[][]>({ sql: timed.sql, rowsAsArray: true });
        rows = Array.isArray(r) ? (r as unknown[][]) : [];
      } catch (e) {
        await this.cleanup(after);
        throw e;
      }
      const ms = performance.now() - t0;
      for (const s of after) await this.c.query(s.sql);
      return { rows: rows.length, ms, ...(o.fetch ? { data: rows } : {}) };
    } finally {
      this.busy = false;
    }
  }

  private async cleanup(after: Statement[]): Promise<void> {
    for (const s of after) await this.c.query(s.sql).catch(() => undefined);
  }

  async explain(q: StreamQueryText): Promise<string> {
    const { before, timed, after } = splitQuery(q);
    for (const s of before) await this.c.query(s.sql);
    try {
      const [rows] = await this.c.query<RowDataPacket[]>(sessionStatement(this.flavour, 'explain').replace('{{sql}}', () => timed.sql));
      return explainText(rows);
    } finally {
      await this.cleanup(after);
    }
  }

  /** One statement (the connection refuses multiple statements), autocommit. */
  async exec(text: string): Promise<void> {
    this.busy = true;
    try {
      await this.c.query(text);
    } finally {
      this.busy = false;
    }
  }

  /** Multi-row INSERTs as prepared statements (at most 65535 placeholders each), in one transaction. */
  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    checkInsertRows(table, columns, rows);
    if (rows.length === 0) return;
    const per = rowsPerInsert(columns.length);
    let full: string | undefined;
    this.busy = true;
    try {
      await this.c.beginTransaction();
      for (const { rows: batch, full: isFull } of rowBatches(rows, per)) {
        const text = isFull ? (full ??= insertSql(table, columns, per)) : insertSql(table, columns, batch.length);
        await this.c.execute(text, batch.flat());
        if (text !== full) this.c.unprepare(text);
      }
      await this.c.commit();
      if (full !== undefined) this.c.unprepare(full);
    } catch (e) {
      await this.c.rollback().catch(() => undefined);
      throw e;
    } finally {
      this.busy = false;
    }
  }

  /** Cancel the running statement, if any (KILL QUERY from a second connection). */
  async cancel(): Promise<void> {
    if (!this.busy) return;
    const role = this.setup.role !== undefined ? { role: `${this.setup.role}-cancel` } : { programName: `${this.setup.programName ?? 'sledge'}-cancel` };
    this.killer ??= connect(this.t, this.flavour, { useDatabase: false, ...role });
    await (await this.killer).query(sessionStatement(this.flavour, 'kill_query'), [this.id]);
  }

  async close(): Promise<void> {
    const k = this.killer;
    this.killer = undefined;
    await Promise.all([this.c.end().catch(() => undefined), k?.then((c) => c.end()).catch(() => undefined)]);
  }
}

/** Driver.openQuerySession: a session whose program_name connection attribute is sledge-<opts.name>. */
export async function openMyQuerySession(t: MyTarget, flavour: Flavour, opts: QuerySessionOptions): Promise<QuerySession> {
  const setup: MySessionSetup = { programName: `sledge-${opts.name}`, queryTimeoutSec: opts.queryTimeoutSec, log: opts.log };
  const { c, id } = await connectQuerySession(t, flavour, setup);
  return new MyQuerySession(c, id, t, flavour, setup);
}
