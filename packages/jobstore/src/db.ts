import { accessSync, closeSync, constants, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CreateDirectoryError, createDirectory, makePrivate } from './fsutil.js';

export type Db = Database.Database;

/** SQLite busy timeout, as HammerDB's job store uses. */
export const BUSY_TIMEOUT_MS = 30000;

/** The job store file cannot be opened: carries the path and the operating system's or SQLite's reason. */
export class JobStoreOpenError extends Error {
  readonly path: string;
  readonly reason: string;

  constructor(path: string, reason: string, cause: unknown) {
    super(`cannot open the job store at ${path}: ${reason}`, { cause });
    this.name = 'JobStoreOpenError';
    this.path = path;
    this.reason = reason;
  }
}

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const isSqliteError = (e: unknown): e is Error & { code: string } => {
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_');
};

/** Explain a SQLite failure at open time in words a user can act on. */
function sqliteReason(e: Error & { code: string }): string {
  switch (e.code) {
    case 'SQLITE_NOTADB':
      return `the file is not a SQLite database (${e.message}); choose another path or move the file away`;
    case 'SQLITE_CORRUPT':
      return `the database file is corrupt (${e.message})`;
    case 'SQLITE_CANTOPEN':
      return `SQLite cannot open the file (${e.message}); check that the path and its directory are writable`;
    case 'SQLITE_READONLY':
      return `the database is read-only (${e.message}); check the permissions of the file and its directory`;
    default:
      return `${e.code}: ${e.message}`;
  }
}

/**
 * Make sure the store's directory exists and is writable and that `file`, if
 * it exists, is a readable and writable regular file. Directories are created
 * level by level so that a failure reports its real cause (EROFS, EACCES ...).
 * Any failure throws a JobStoreOpenError naming the path and the reason.
 */
export function prepareDirectory(file: string): void {
  const dir = dirname(file);
  try {
    createDirectory(dir);
  } catch (e) {
    const code = e instanceof CreateDirectoryError ? e.code : (e as { code?: unknown }).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? `${dir} or one of its parents exists and is not a directory (${reasonOf(e)})` : reasonOf(e);
    throw new JobStoreOpenError(file, `cannot create the directory ${dir}: ${why}`, e);
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    throw new JobStoreOpenError(file, `the directory ${dir} is not writable (SQLite needs it for the WAL file): ${reasonOf(e)}`, e);
  }
  let exists = false;
  try {
    const st = statSync(file);
    exists = true;
    if (!st.isFile()) throw new Error('it exists and is not a regular file');
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch (e) {
    if (exists || (e as { code?: unknown }).code !== 'ENOENT') throw new JobStoreOpenError(file, reasonOf(e), e);
  }
}

/**
 * Open (creating if needed) the SQLite file at `path` in WAL mode with a 30 s
 * busy timeout. A new file is created owner-only (0600, whatever the umask);
 * SQLite gives its -wal and -shm the database file's mode. Any failure throws
 * a JobStoreOpenError naming the path and the reason.
 */
export function openDatabase(path: string): Db {
  const file = resolve(path);
  prepareDirectory(file);
  let db: Db | undefined;
  try {
    closeSync(openSync(file, 'a', 0o600));
    makePrivate([file, `${file}-wal`, `${file}-shm`, `${file}-journal`]);
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`SQLite refused WAL mode (journal_mode is ${String(mode)})`);
    // WAL + NORMAL: a killed process loses nothing it committed; power loss cannot corrupt the file.
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Deleted content (a saved secret, a deleted job) is overwritten, not left in free space.
    db.pragma('secure_delete = ON');
    // After a checkpoint resets the WAL, the file is cut back to this size.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    return db;
  } catch (e) {
    db?.close();
    throw new JobStoreOpenError(file, isSqliteError(e) ? sqliteReason(e) : reasonOf(e), e);
  }
}

/** Bytes the job store's WAL is truncated to after a checkpoint (PRAGMA journal_size_limit). */
export const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

/** Run `fn` in one IMMEDIATE transaction (takes the write lock up front, so no busy upgrade deadlock). */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
