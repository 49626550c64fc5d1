import { createRequire } from 'node:module';
import { spawn, type ChildProcess } from 'node:child_process';
import type { TprochNewOrder, TprochQueryRun, TprochQueryText, TprochRefreshOptions, TprochStream, TprochStreamOptions, Value } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { openExisting, resolveFile, VU_TUNING } from '../engine/connection.js';
import { SessionClosedError } from '../engine/errors.js';
import type { Db } from '../engine/library.js';
import { tprochSql } from './sql.js';

/**
 * The query runner of a stream, run in a child process of its own.
 * better-sqlite3 is synchronous and has no interrupt (no
 * sqlite3_interrupt, no progress handler), and a worker thread cannot be
 * terminated while it is inside SQLite's C code: the only way to stop a
 * running query at once is to stop the process it runs in. So the stream
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

/** A query the stream stopped (cancel or statement timeout): SQLite's SQLITE_INTERRUPT. */
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
  resolve(r: TprochQueryRun): void;
  reject(e: Error): void;
}

type Reply = { ready: true } | { id: number; rows: number; ms: number; data?: unknown[][]; error?: { message: string; code?: string } };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class QueryProcess {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private readonly exited: Promise<void>;
  private pending: Pending | undefined;
  private dead: Error | undefined;
  private seq = 0;

  constructor(target: SqliteTarget) {
    const cfg = { lib: betterSqlite3, file: resolveFile(target), busyTimeoutMs: target.busyTimeoutMs, cacheKiB: VU_TUNING.cacheKiB, mmapBytes: VU_TUNING.mmapBytes };
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

  async run(statements: TprochQueryText['statements'], fetch: boolean): Promise<TprochQueryRun> {
    await this.ready;
    if (this.dead) throw this.dead;
    return new Promise<TprochQueryRun>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send({ id: ++this.seq, statements, fetch });
    });
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
 * One TPROC-H stream on SQLite. Queries run in the stream's query process
 * (see CHILD_CODE), so cancel() and the statement timeout stop a query in
 * the middle; EXPLAIN and the refresh functions run on the stream's own
 * connection in this process. SQLite has no degree of parallelism (opts.dop
 * is ignored) and no session names.
 */
class SqliteStream implements TprochStream {
  private proc: QueryProcess | undefined;
  private closed = false;

  constructor(
    private readonly target: SqliteTarget,
    private readonly db: Db,
    private readonly opts: TprochStreamOptions,
  ) {}

  private queryProcess(): QueryProcess {
    if (!this.proc?.alive) this.proc = new QueryProcess(this.target);
    return this.proc;
  }

  async query(q: TprochQueryText, o: { fetch?: boolean } = {}): Promise<TprochQueryRun> {
    if (this.closed) throw new SessionClosedError();
    const proc = this.queryProcess();
    const limit = this.opts.queryTimeoutSec;
    if (limit <= 0) return proc.run(q.statements, o.fetch === true);
    const timer = setTimeout(() => {
      void proc.stop(new SqliteInterrupted(`query ${q.query} stopped by the statement timeout (${limit} s)`));
    }, limit * 1000);
    try {
      return await proc.run(q.statements, o.fetch === true);
    } finally {
      clearTimeout(timer);
    }
  }

  async explain(q: TprochQueryText): Promise<string> {
    if (this.closed) throw new SessionClosedError();
    const timed = q.statements.find((s) => s.timed);
    if (!timed) throw new Error(`query ${q.query} has no timed statement`);
    const sql = tprochSql('explain.sql').explain.replace('{{sql}}', () => timed.sql);
    const rows = this.db.prepare<[], { id: number; parent: number; detail: string }>(sql).all();
    const depth = new Map<number, number>([[0, -1]]);
    const lines: string[] = [];
    for (const r of rows) {
      const d = (depth.get(r.parent) ?? -1) + 1;
      depth.set(r.id, d);
      lines.push(`${'  '.repeat(d)}${r.detail}`);
    }
    return lines.join('\n');
  }

  async cancel(): Promise<void> {
    const t = this.proc;
    if (t?.busy) await t.stop(new SqliteInterrupted('query cancelled'));
  }

  async newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void> {
    const sql = tprochSql('refresh.sql');
    const order = this.db.prepare<[readonly Value[]]>(sql.rf1_order);
    const line = this.db.prepare<[readonly Value[]]>(sql.rf1_lineitem);
    await this.trickle(orders, o, (x) => {
      order.run(x.order);
      for (const l of x.lineitems) line.run(l);
    });
  }

  async oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void> {
    const sql = tprochSql('refresh.sql');
    const lines = this.db.prepare<[number]>(sql.rf2_lineitem);
    const order = this.db.prepare<[number]>(sql.rf2_order);
    await this.trickle(orderKeys, o, (k) => {
      lines.run(k);
      order.run(k);
    });
  }

  /** Per item: sleep trickleMs, apply it; commit every commitEvery items and at the end. */
  private async trickle<X>(items: readonly X[], o: TprochRefreshOptions, apply: (x: X) => void): Promise<void> {
    if (this.closed) throw new SessionClosedError();
    const every = Math.max(1, o.commitEvery);
    let inTx = 0;
    try {
      for (const x of items) {
        if (o.stopped()) break;
        if (o.trickleMs > 0) await sleep(o.trickleMs);
        if (inTx === 0) this.db.exec('BEGIN IMMEDIATE');
        apply(x);
        if (++inTx >= every) {
          this.db.exec('COMMIT');
          inTx = 0;
        }
      }
      if (this.db.inTransaction) this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const t = this.proc;
    this.proc = undefined;
    if (t) await t.stop(new SessionClosedError());
    if (this.db.open) this.db.close();
  }
}

export function openTprochStream(target: SqliteTarget, opts: TprochStreamOptions): TprochStream {
  return new SqliteStream(target, openExisting(target, VU_TUNING), opts);
}
