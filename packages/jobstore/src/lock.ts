import { closeSync, openSync } from 'node:fs';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { makePrivate } from './fsutil.js';

/** Who holds a store's lock, as written by the holder. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

/** Another process (or another JobStore in this one) has the store open. */
export class JobStoreLockedError extends Error {
  readonly path: string;
  readonly holder: LockHolder | undefined;

  constructor(path: string, holder: LockHolder | undefined) {
    const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}` : 'a process that has not recorded its pid yet';
    super(`the job store ${path} is in use by another Sledge server (${who}): stop that server first, or give this one another data directory`);
    this.name = 'JobStoreLockedError';
    this.path = path;
    this.holder = holder;
  }

  get pid(): number | undefined {
    return this.holder?.pid;
  }
}

const isBusy = (e: unknown) => typeof (e as { code?: unknown })?.code === 'string' && String((e as { code: string }).code).startsWith('SQLITE_BUSY');

/**
 * One writer per job store. The lock is a SQLite file beside the store
 * (sledge.lock) on which the holder keeps a write transaction open for as
 * long as the store is open: SQLite's file lock is released by the operating
 * system when the process dies in any way (kill -9 included), so a stale lock
 * cannot exist. The holder's pid is committed in the file before the lock is
 * taken for good, and others read it (readers are allowed beside a writer in
 * rollback-journal mode) to name the holder.
 */
export class StoreLock {
  private constructor(
    private readonly db: Database.Database,
    readonly path: string,
  ) {}

  /** Take the lock at `lockPath` for `storePath`, or throw JobStoreLockedError naming the holder. */
  static acquire(lockPath: string, storePath: string): StoreLock {
    // Create the file owner-only before SQLite opens it (SQLite would apply the umask).
    closeSync(openSync(lockPath, 'a', 0o600));
    makePrivate([lockPath]);
    const db = new Database(lockPath, { timeout: 0 });
    try {
      db.pragma('journal_mode = DELETE');
      db.pragma('busy_timeout = 0');
      db.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, started_at TEXT NOT NULL)');
      const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
      // 1. Write our pid under the write lock and commit; 2. take the write lock again and keep it.
      // A process that slips in between writes its own pid and wins; we then read its pid and refuse.
      db.exec('BEGIN IMMEDIATE');
      db.prepare('INSERT INTO holder (id, pid, host, started_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at').run(
        me.pid,
        me.host,
        me.startedAt,
      );
      db.pragma('busy_timeout = 2000'); // COMMIT waits for a reader that is looking at the holder row
      db.exec('COMMIT');
      db.pragma('busy_timeout = 0');
      db.exec('BEGIN IMMEDIATE');
      return new StoreLock(db, lockPath);
    } catch (e) {
      if (db.inTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // the lock is being released with the connection anyway
        }
      }
      if (!isBusy(e)) {
        db.close();
        throw e;
      }
      const holder = readHolder(db);
      db.close();
      throw new JobStoreLockedError(storePath, holder);
    }
  }

  /** Release the lock (closing the connection ends the transaction). */
  release(): void {
    if (!this.db.open) return;
    try {
      this.db.exec('ROLLBACK');
    } finally {
      this.db.close();
    }
  }
}

function readHolder(db: Database.Database): LockHolder | undefined {
  try {
    db.pragma('busy_timeout = 1000');
    const row = db.prepare('SELECT pid, host, started_at FROM holder WHERE id = 1').get() as { pid: number; host: string; started_at: string } | undefined;
    return row ? { pid: row.pid, host: row.host, startedAt: row.started_at } : undefined;
  } catch {
    return undefined;
  }
}
