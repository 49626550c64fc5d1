import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './library.js';

function isBusy(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * BEGIN IMMEDIATE with a fine-grained wait for SQLite's write lock.
 *
 * SQLite's own busy handler backs off to 100 ms sleeps. Between two VUs
 * that write back to back the lock is free only for the few microseconds
 * between one's COMMIT and its next BEGIN, so a writer asleep for 100 ms
 * keeps missing it: in a measured run one of two VUs waited up to 600 ms
 * and committed half as often. Here BEGIN IMMEDIATE runs with the busy
 * timeout switched off and is retried after short sleeps (20 us doubling
 * to 1 ms) within the same budget, target.busyTimeoutMs. Every other
 * statement keeps the connection's busy_timeout.
 */
export class WriteLock {
  private readonly begin: BetterSqlite3.Statement<[]>;
  private readonly noWait: BetterSqlite3.Statement<[]>;
  private readonly restoreWait: BetterSqlite3.Statement<[]>;
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(
    db: Db,
    private readonly timeoutMs: number,
  ) {
    this.begin = db.prepare<[]>('BEGIN IMMEDIATE');
    this.noWait = db.prepare<[]>('PRAGMA busy_timeout = 0');
    this.restoreWait = db.prepare<[]>(`PRAGMA busy_timeout = ${Math.trunc(timeoutMs)}`);
  }

  /** Take the write lock or throw SQLITE_BUSY once timeoutMs has passed. */
  acquire(): void {
    this.noWait.run();
    try {
      const deadline = performance.now() + this.timeoutMs;
      let sleepMs = 0.02;
      for (;;) {
        try {
          this.begin.run();
          return;
        } catch (e) {
          const left = deadline - performance.now();
          if (!isBusy(e) || left <= 0) throw e;
          Atomics.wait(this.sleeper, 0, 0, Math.min(sleepMs, left));
          sleepMs = Math.min(sleepMs * 2, 1);
        }
      }
    } finally {
      this.restoreWait.run();
    }
  }
}
