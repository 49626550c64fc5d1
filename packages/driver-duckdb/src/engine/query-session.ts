import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkInsertRows, rowBatches, type QueryProfile, type QuerySession, type QuerySessionOptions, type StreamQueryOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import { SledgeError, type DuckdbTarget } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { connect, type Handle } from './connection.js';
import { DuckdbInterrupted, SessionClosedError } from './errors.js';
import { parseDuckdbProfile } from './profile.js';
import { jsRows } from './values.js';

/** packages/sql/duckdb/engine/session.sql: the query session's own statements. */
const sql = sqlSet<'session.sql'>('duckdb', 'engine');
export const sessionStatement = (name: string): string => sql.statement('session.sql', name);

export type Row = readonly (string | number | null)[];

/** Rows per INSERT statement of insertRows. */
export const ROWS_PER_INSERT = 500;

/** A double-quoted identifier ("" inside). */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** `INSERT INTO "t" ("a","b") VALUES ($1,$2),($3,$4)...` for `n` rows. */
export function insertSql(table: string, columns: readonly string[], n: number): string {
  const c = columns.length;
  const tuples = Array.from({ length: n }, (_, r) => `(${columns.map((_, i) => `$${r * c + i + 1}`).join(',')})`);
  return `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(',')}) VALUES ${tuples.join(',')}`;
}

/** SET threads = n: the degree of parallelism (a positive integer). */
export function threadsStatement(dop: number): string {
  if (!Number.isInteger(dop) || dop < 1) throw new SledgeError('SLEDGE_E_VALIDATION', `DuckDB threads must be a positive integer, got ${dop}`, { field: 'dop' });
  return sessionStatement('set_threads').replaceAll('{{threads}}', String(dop));
}

/**
 * A query session on DuckDB: one connection on the thread's instance of the
 * target's database (engine/connection.ts). @duckdb/node-api runs
 * statements off the JavaScript thread, so cancel() and the statement
 * timeout interrupt the connection while a query runs (DuckDB has no
 * statement_timeout setting; the timer is ours). The degree of parallelism
 * is DuckDB's `threads` setting, which is the database's, not the
 * connection's: every session of the file shares the last value set.
 * DuckDB runs in this process, so each timed statement reports the CPU the
 * process used while it ran (`cpuSeconds`), and asked for a profile it
 * returns DuckDB's own (JSON profiling of that statement only).
 * TPROC-H's stream extends it.
 */
export class DuckdbQuerySession implements QuerySession {
  readonly profiles = true;
  protected closed = false;
  private running: Promise<unknown> | undefined;
  private stopReason: Error | undefined;
  /** The session's private directory for DuckDB's profile file, made on the first profiled query. */
  private profileDir: string | undefined;

  constructor(
    protected readonly handle: Handle,
    private readonly queryTimeoutSec: number,
  ) {}

  /** Run `fn` on the connection; cancel() and the statement timeout interrupt it. */
  protected async interruptible<R>(fn: () => Promise<R>, timeoutError?: () => Error): Promise<R> {
    if (this.closed) throw new SessionClosedError();
    this.stopReason = undefined;
    const limit = this.queryTimeoutSec;
    const timer =
      limit > 0 && timeoutError
        ? setTimeout(() => {
            this.stopReason = timeoutError();
            this.handle.conn.interrupt();
          }, limit * 1000)
        : undefined;
    const run = fn();
    this.running = run;
    try {
      return await run;
    } catch (e) {
      const reason = this.stopReason;
      if (reason) {
        (reason as { cause?: unknown }).cause = e;
        throw reason;
      }
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
      this.running = undefined;
      this.stopReason = undefined;
    }
  }

  async query(q: StreamQueryText, o: StreamQueryOptions = {}): Promise<StreamQueryRun> {
    const limit = this.queryTimeoutSec;
    return this.interruptible(
      async () => {
        let rows = 0;
        let ms = 0;
        let cpuSeconds = 0;
        let data: unknown[][] | undefined;
        let profile: QueryProfile | null = null;
        for (const s of q.statements) {
          if (!s.timed) {
            await this.handle.conn.run(s.sql);
            continue;
          }
          const file = o.profile ? await this.profilingOn() : undefined;
          try {
            const cpu0 = process.cpuUsage();
            const t0 = performance.now();
            const reader = await this.handle.conn.runAndReadAll(s.sql);
            const got = reader.getRows();
            ms = performance.now() - t0;
            const cpu = process.cpuUsage(cpu0);
            cpuSeconds = (cpu.user + cpu.system) / 1e6;
            rows = got.length;
            if (o.fetch) data = jsRows(got);
            if (file) profile = readProfile(file, s.sql); // before profiling_off, whose own run could write the file
          } finally {
            // After an interrupt too; its failure must not hide the query's own error (the next profiled query turns it on again).
            if (file) await this.handle.conn.run(sessionStatement('profiling_off')).catch(() => undefined);
          }
        }
        return { rows, ms, cpuSeconds, ...(data ? { data } : {}), ...(profile ? { profile } : {}) };
      },
      () => new DuckdbInterrupted(`query ${q.query} stopped by the statement timeout (${limit} s)`),
    );
  }

  /** Profile the next statement as JSON into the session's own file (made 0700 on first use); its path. */
  private async profilingOn(): Promise<string> {
    const first = !this.profileDir;
    this.profileDir ??= mkdtempSync(join(tmpdir(), 'sledge-duckdb-profile-'));
    const file = join(this.profileDir, 'profile.json');
    rmSync(file, { force: true }); // an earlier query's profile is never read as this one's
    await this.handle.conn.run(sessionStatement('profiling_on'));
    // The output file once, after the format (DuckDB checks its extension against the format); it stays through disable/enable.
    if (first) await this.handle.conn.run(sessionStatement('profiling_output').replaceAll('{{file}}', () => file.replace(/'/g, "''")));
    return file;
  }

  /** DuckDB's physical plan (EXPLAIN), as the box tree DuckDB prints. */
  async explain(q: StreamQueryText): Promise<string> {
    const timed = q.statements.find((s) => s.timed);
    if (!timed) throw new Error(`query ${q.query} has no timed statement`);
    return this.planText(sessionStatement('explain'), timed.sql);
  }

  /** EXPLAIN ANALYZE: runs the query; the plan with each operator's time and rows. */
  async profile(q: StreamQueryText): Promise<string> {
    const timed = q.statements.find((s) => s.timed);
    if (!timed) throw new Error(`query ${q.query} has no timed statement`);
    return this.interruptible(() => this.planText(sessionStatement('profile'), timed.sql));
  }

  private async planText(template: string, text: string): Promise<string> {
    if (this.closed) throw new SessionClosedError();
    const reader = await this.handle.conn.runAndReadAll(template.replaceAll('{{sql}}', () => text.trim().replace(/;\s*$/, '')));
    return reader
      .getRows()
      .map((r) => String(r[1] ?? ''))
      .join('\n');
  }

  async exec(text: string): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    await this.handle.conn.run(text);
  }

  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    checkInsertRows(table, columns, rows);
    if (rows.length === 0) return;
    await this.transaction(async () => {
      for (const { rows: batch } of rowBatches(rows, ROWS_PER_INSERT)) {
        await this.handle.conn.run(insertSql(table, columns, batch.length), batch.flat() as (string | number | null)[]);
      }
    });
  }

  /** BEGIN, fn, COMMIT; ROLLBACK when fn throws. */
  protected async transaction(fn: () => Promise<void>): Promise<void> {
    await this.handle.conn.run('BEGIN TRANSACTION');
    try {
      await fn();
      await this.handle.conn.run('COMMIT');
    } catch (e) {
      await this.handle.conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async cancel(): Promise<void> {
    if (!this.running || this.closed) return;
    this.stopReason ??= new DuckdbInterrupted('query cancelled');
    this.handle.conn.interrupt();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const running = this.running;
    if (running) {
      await this.cancel();
      await running.catch(() => undefined);
    }
    this.closed = true;
    this.handle.release();
    if (this.profileDir) rmSync(this.profileDir, { recursive: true, force: true });
  }
}

/** The profile DuckDB wrote for `sql`; null when the file is missing or profiles another statement. */
function readProfile(file: string, sql: string): QueryProfile | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return parseDuckdbProfile(text, sql);
}

/** Open a connection for a query session and set its threads (dop >= 1). */
export async function openHandle(target: DuckdbTarget, dop: number): Promise<Handle> {
  const handle = await connect(target, 'existing');
  try {
    if (dop >= 1) await handle.conn.run(threadsStatement(dop));
    return handle;
  } catch (e) {
    handle.release();
    throw e;
  }
}

/** Driver.openQuerySession: the target's file must exist. */
export async function openDuckdbQuerySession(target: DuckdbTarget, opts: QuerySessionOptions): Promise<DuckdbQuerySession> {
  return new DuckdbQuerySession(await openHandle(target, opts.dop), opts.queryTimeoutSec);
}
