import { createRequire } from 'node:module';
import { spawn, type ChildProcess } from 'node:child_process';
import { checkInsertRows, rowsPerStatement, rowBatches, type QuerySession, type QuerySessionOptions, type StreamQueryRun, type StreamQueryText } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { openExisting, resolveFile, VU_TUNING } from './connection.js';
import { SessionClosedError } from './errors.js';
import type { Db } from './library.js';

type Statement = ReturnType<Db['prepare']>;

/** packages/sql/sqlite/engine/session.sql: the query session's own statements. */
const sql = sqlSet<'session.sql'>('sqlite', 'engine');
export const sessionStatement = (name: string): string => sql.statement('session.sql', name);

/**
 * Bound parameters per statement: SQLite's SQLITE_MAX_VARIABLE_NUMBER
 * default since 3.32 (better-sqlite3 builds with the default).
 */
export const SQLITE_MAX_PARAMS = 32766;

export type Row = readonly (string | number | null)[];

/** Rows per INSERT for `columns` columns: as many as the parameter limit allows. */
export function rowsPerInsert(columns: number, maxParams = SQLITE_MAX_PARAMS): number {
  return rowsPerStatement(columns, maxParams);
}

/** A double-quoted identifier ("" inside). */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** `INSERT INTO "t" ("a","b") VALUES (?,?),(?,?)...` for `n` rows. */
export function insertSql(table: string, columns: readonly string[], n: number): string {
  const tuple = `(${columns.map(() => '?').join(',')})`;
  return `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(',')}) VALUES ${Array.from({ length: n }, () => tuple).join(',')}`;
}

/**
 * The query runner of a query session, run in a child process of its own.
 * better-sqlite3 is synchronous and has no interrupt (no
 * sqlite3_interrupt, no progress handler), and a worker thread cannot be
 * terminated while it is inside SQLite's C code: the only way to stop a
 * running query at once is to stop the process it runs in. So the session
 * runs its queries in this process and kills it to cancel a query or to
 * enforce the statement timeout; a new process and connection take over for
 * the next query. Only reads run there (SQLite's Q15 is a single statement),
 * and a killed reader leaves a WAL database intact. The code is evaluated by
 * Node (CommonJS), so it loads from src/ (tests) and dist/ alike.
 */
const CHILD_CODE = `
const { performance } = require('node:perf_hooks');
const cfg = JSON.parse(process.argv[1]);
const Database = require(cfg.lib);
const db = new Database(cfg.file, { fileMustExist: true, timeout: cfg.busyTimeoutMs });
db.pragma('busy_timeout = ' + cfg.busyTimeoutMs);
db.pragma('synchronous = ' + cfg.synchronous);
db.pragma('foreign_keys = OFF');
db.pragma('cache_size = -' + cfg.cacheKiB);
db.pragma('mmap_size = ' + cfg.mmapBytes);
db.pragma('temp_store = MEMORY');
process.on('message', (m) => {
  try {
    let rows = 0, ms = 0, data;
    for (const s of m.statements) {
      const t0 = performance.now();
      const st = db.prepare(s.sql);
      if (st.reader) {
        const r = st.raw().all();
        if (s.timed) { rows = r.length; if (m.fetch) data = r; }
      } else {
        st.run();
      }
      if (s.timed) ms = performance.now() - t0;
    }
    process.send({ id: m.id, rows, ms, data });
  } catch (e) {
    process.send({ id: m.id, error: { message: String((e && e.message) || e), code: e && e.code } });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** A query the session stopped (cancel or statement timeout): SQLite's SQLITE_INTERRUPT. */
export class SqliteInterrupted extends Error {
  readonly code = 'SQLITE_INTERRUPT';
  constructor(message: string) {
    super(message);
    this.name = 'SqliteInterrupted';
  }
}

/** An error the query process reported, with SQLite's code kept for classifyError. */
class SqliteQueryError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

interface Pending {
  resolve(r: StreamQueryRun): void;
  reject(e: Error): void;
}

type Reply = { ready: true } | { id: number; rows: number; ms: number; data?: unknown[][]; error?: { message: string; code?: string } };

class QueryProcess {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private readonly exited: Promise<void>;
  private pending: Pending | undefined;
  private dead: Error | undefined;
  private seq = 0;

  constructor(target: SqliteTarget) {
    const cfg = { lib: betterSqlite3, file: resolveFile(target), busyTimeoutMs: target.busyTimeoutMs, synchronous: target.synchronous.toUpperCase(), cacheKiB: VU_TUNING.cacheKiB, mmapBytes: VU_TUNING.mmapBytes };
    this.child = spawn(process.execPath, ['-e', CHILD_CODE, JSON.stringify(cfg)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    let stderr = '';
    this.child.stderr?.on('data', (b: Buffer) => {
      if (stderr.length < 4000) stderr += b.toString();
    });
    this.exited = new Promise((r) => this.child.once('exit', () => r()));
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (m: Reply) => {
        if ('ready' in m) return resolve();
        const p = this.pending;
        this.pending = undefined;
        if (!p) return;
        if (m.error) p.reject(new SqliteQueryError(m.error.message, m.error.code));
        else p.resolve({ rows: m.rows, ms: m.ms, ...(m.data ? { data: m.data } : {}) });
      });
      this.child.once('error', (e) => {
        this.dead ??= e;
        reject(e);
        this.fail(e);
      });
      this.child.once('exit', (code, signal) => {
        this.dead ??= new SqliteQueryError(`the query process ended (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`, 'SQLITE_CLOSED');
        reject(this.dead);
        this.fail(this.dead);
      });
    });
    this.ready.catch(() => undefined);
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = undefined;
    p?.reject(e);
  }

  /**
   * Run the statements; with `timeoutMs` > 0 the process is killed when they
   * take longer (counted from when the process has them, not from its start).
   */
  async run(statements: StreamQueryText['statements'], fetch: boolean, timeoutMs = 0, timeoutError?: () => Error): Promise<StreamQueryRun> {
    await this.ready;
    if (this.dead) throw this.dead;
    const done = new Promise<StreamQueryRun>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send({ id: ++this.seq, statements, fetch });
    });
    if (timeoutMs <= 0) return done;
    const timer = setTimeout(() => void this.stop(timeoutError ? timeoutError() : new SqliteInterrupted('statement timeout')), timeoutMs);
    try {
      return await done;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kill the process; a running query fails with `reason`. Returns when it is gone. */
  async stop(reason: Error): Promise<void> {
    this.dead ??= reason;
    this.fail(reason);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/**
 * A query session on SQLite. Timed queries run in the session's query
 * process (see CHILD_CODE), so cancel() and the statement timeout stop a
 * query in the middle (SQLITE_INTERRUPT, classified as a timeout); exec,
 * insertRows and EXPLAIN run on the session's own connection in this
 * process (synchronous: the statement timeout does not apply to them).
 * SQLite has no degree of parallelism (dop is ignored) and no session
 * names. TPROC-H's stream extends it.
 */
export class SqliteQuerySession implements QuerySession {
  private proc: QueryProcess | undefined;
  protected closed = false;

  constructor(
    private readonly target: SqliteTarget,
    protected readonly db: Db,
    private readonly queryTimeoutSec: number,
  ) {}

  private queryProcess(): QueryProcess {
    if (!this.proc?.alive) this.proc = new QueryProcess(this.target);
    return this.proc;
  }

  async query(q: StreamQueryText, o: { fetch?: boolean } = {}): Promise<StreamQueryRun> {
    if (this.closed) throw new SessionClosedError();
    const limit = this.queryTimeoutSec;
    const timeout = () => new SqliteInterrupted(`query ${q.query} stopped by the statement timeout (${limit} s)`);
    return this.queryProcess().run(q.statements, o.fetch === true, limit > 0 ? limit * 1000 : 0, timeout);
  }

  async explain(q: StreamQueryText): Promise<string> {
    if (this.closed) throw new SessionClosedError();
    const timed = q.statements.find((s) => s.timed);
    if (!timed) throw new Error(`query ${q.query} has no timed statement`);
    const text = sessionStatement('explain').replace('{{sql}}', () => timed.sql);
    const rows = this.db.prepare<[], { id: number; parent: number; detail: string }>(text).all();
    const depth = new Map<number, number>([[0, -1]]);
    const lines: string[] = [];
    for (const r of rows) {
      const d = (depth.get(r.parent) ?? -1) + 1;
      depth.set(r.id, d);
      lines.push(`${'  '.repeat(d)}${r.detail}`);
    }
    return lines.join('\n');
  }

  /** One statement (prepare refuses more than one), autocommit. */
  async exec(text: string): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    this.db.prepare(text).run();
  }

  async insertRows(table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    checkInsertRows(table, columns, rows);
    if (rows.length === 0) return;
    const per = rowsPerInsert(columns.length);
    let full: Statement | undefined;
    this.db.transaction(() => {
      for (const { rows: batch, full: isFull } of rowBatches(rows, per)) {
        const st = isFull ? (full ??= this.db.prepare(insertSql(table, columns, per))) : this.db.prepare(insertSql(table, columns, batch.length));
        st.run(batch.flat());
      }
    }).immediate();
  }

  async cancel(): Promise<void> {
    const t = this.proc;
    if (t?.busy) await t.stop(new SqliteInterrupted('query cancelled'));
  }

  async close(): Promise<void> {
    this.closed = true;
    const t = this.proc;
    this.proc = undefined;
    if (t) await t.stop(new SessionClosedError());
    if (this.db.open) this.db.close();
  }
}

/** Driver.openQuerySession: the target's file must exist. */
export function openSqliteQuerySession(target: SqliteTarget, opts: QuerySessionOptions): SqliteQuerySession {
  return new SqliteQuerySession(target, openExisting(target, VU_TUNING), opts.queryTimeoutSec);
}
