import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import { checkInsertRows, rowsPerStatement, rowBatches, type Logger, type QuerySession, type QuerySessionOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { closeQuietly, connect } from './connect.js';

/** packages/sql/postgresql/engine/session.sql: the query session's own statements. */
const sql = sqlSet<'session.sql'>('postgresql', 'engine');
export const sessionStatement = (name: string): string => sql.statement('session.sql', name);

/** PostgreSQL's type OID of DATE. */
const DATE_OID = 1082;

/** Bound parameters per statement: the protocol's limit (a 16-bit count). */
export const PG_MAX_PARAMS = 65535;

/**
 * DATE values as the server sends them (YYYY-MM-DD: DateStyle ISO, set in
 * session_settings). node-postgres would make a Date at the process's local
 * midnight, which shows as a timestamp and, east of UTC, as the day before;
 * a session's rows are the same text on every machine.
 */
const dateAsText = (value: string): string => value;

type Statement = StreamQueryText['statements'][number];
export type Row = readonly (string | number | null)[];

/** The statements around the timed one: before (Q15's create view) and after (drop view). */
export function splitQuery(q: StreamQueryText): { before: Statement[]; timed: Statement; after: Statement[] } {
  const i = q.statements.findIndex((s) => s.timed);
  if (i < 0) throw new Error(`query ${q.query} has no timed statement`);
  return { before: q.statements.slice(0, i), timed: q.statements[i]!, after: q.statements.slice(i + 1) };
}

/** Rows per INSERT for `columns` columns: as many as the parameter limit allows (and maxRows). */
export function rowsPerInsert(columns: number, maxParams: number, maxRows = Infinity): number {
  return rowsPerStatement(columns, maxParams, maxRows);
}

/** `INSERT INTO "t" ("a","b") VALUES ($1,$2),($3,$4)...` for `n` rows. */
export function insertSql(quote: (s: string) => string, table: string, columns: readonly string[], n: number): string {
  const k = columns.length;
  const tuples = Array.from({ length: n }, (_, r) => `(${columns.map((_c, j) => `$${r * k + j + 1}`).join(',')})`);
  return `INSERT INTO ${quote(table)} (${columns.map(quote).join(',')}) VALUES ${tuples.join(',')}`;
}

/** How a query session is set up: its application_name, degree of parallelism and statement timeout. */
export interface PgSessionSetup {
  applicationName: string;
  dop: number;
  queryTimeoutSec: number;
  log: Logger;
}

/** A connected session: the client (session settings made) and its backend pid. */
export interface PgSessionConnection {
  c: Client;
  pid: number;
}

/**
 * Connect as the target's user to its database, named `applicationName`,
 * with max_parallel_workers_per_gather = dop, statement_timeout and
 * DateStyle ISO (DATE as YYYY-MM-DD text).
 */
export async function connectQuerySession(t: PostgresqlTarget, s: PgSessionSetup): Promise<PgSessionConnection> {
  const c = await connect(t, 'user', s.applicationName, s.log);
  c.setTypeParser(DATE_OID, dateAsText);
  try {
    await c.query(sessionStatement('session_settings'), [String(Math.max(0, Math.trunc(s.dop))), String(Math.max(0, s.queryTimeoutSec) * 1000)]);
    const pid = Number((await c.query<{ pid: number }>(sessionStatement('backend_pid'))).rows[0]!.pid);
    return { c, pid };
  } catch (e) {
    await closeQuietly(c);
    throw e;
  }
}

/**
 * A query session on PostgreSQL: a session named by its application_name
 * with max_parallel_workers_per_gather = dop and statement_timeout set
 * (SQLSTATE 57014 when it fires, also for exec and insertRows). cancel()
 * sends pg_cancel_backend for this session's backend from a second
 * connection, opened on first use. TPROC-H's stream extends it.
 */
export class PgQuerySession implements QuerySession {
  private canceller: Promise<Client> | undefined;
  private busy = false;

  constructor(
    protected readonly c: Client,
    private readonly pid: number,
    private readonly t: PostgresqlTarget,
    private readonly setup: PgSessionSetup,
  ) {}

  /** Run the statements, timing the timed one; after a failure the trailing statements (drop view) still run. */
  async query(q: StreamQueryText, o: { fetch?: boolean } = {}): Promise<StreamQueryRun> {
    const { before, timed, after } = splitQuery(q);
    this.busy = true;
    try {
      for (const s of before) await this.c.query(s.sql);
      const t0 = performance.now();
      let r;
      try {
        r = await this.c.query<unknown[]>({ text: timed.sql, rowMode: 'array' });
      } catch (e) {
        await this.cleanup(after);
        throw e;
      }
      const ms = performance.now() - t0;
      for (const s of after) await this.c.query(s.sql);
      return { rows: r.rows.length, ms, ...(o.fetch ? { data: r.rows } : {}) };
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
      const text = sessionStatement('explain').replace('{{sql}}', () => timed.sql);
      const r = await this.c.query<unknown[]>({ text, rowMode: 'array' });
      return r.rows.map((row) => String(row[0])).join('\n');
    } finally {
      await this.cleanup(after);
    }
  }

  async exec(text: string): Promise<void> {
    this.busy = true;
    try {
      await this.c.query(text);
    } finally {
      this.busy = false;
    }
  }

  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    checkInsertRows(table, columns, rows);
    if (rows.length === 0) return;
    const per = rowsPerInsert(columns.length, PG_MAX_PARAMS);
    const quote = (s: string) => this.c.escapeIdentifier(s);
    let full: string | undefined;
    this.busy = true;
    try {
      await this.c.query('BEGIN');
      for (const { rows: batch, full: isFull } of rowBatches(rows, per)) {
        const text = isFull ? (full ??= insertSql(quote, table, columns, per)) : insertSql(quote, table, columns, batch.length);
        await this.c.query(text, batch.flat());
      }
      await this.c.query('COMMIT');
    } catch (e) {
      await this.c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      this.busy = false;
    }
  }

  /** Cancel the running statement, if any (pg_cancel_backend from a second connection). */
  async cancel(): Promise<void> {
    if (!this.busy) return;
    this.canceller ??= connect(this.t, 'user', `${this.setup.applicationName}-cancel`, this.setup.log);
    const c = await this.canceller;
    await c.query(sessionStatement('cancel_backend'), [this.pid]);
  }

  async close(): Promise<void> {
    const canceller = this.canceller;
    this.canceller = undefined;
    await Promise.all([closeQuietly(this.c), canceller ? canceller.then(closeQuietly, () => undefined) : undefined]);
  }
}

/** Driver.openQuerySession: a session named sledge-<opts.name>. */
export async function openPgQuerySession(t: PostgresqlTarget, opts: QuerySessionOptions): Promise<QuerySession> {
  const setup: PgSessionSetup = { applicationName: `sledge-${opts.name}`, dop: opts.dop, queryTimeoutSec: opts.queryTimeoutSec, log: opts.log };
  const { c, pid } = await connectQuerySession(t, setup);
  return new PgQuerySession(c, pid, t, setup);
}
