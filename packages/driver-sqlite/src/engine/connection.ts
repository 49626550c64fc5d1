import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { SledgeError, type SqliteTarget } from '@sledge/protocol';
import { dbConstructor, type Db } from './library.js';

/**
 * Connection settings. WAL lets readers run beside the one writer. The busy
 * timeout (target.busyTimeoutMs) is how long a connection waits for a lock
 * before SQLITE_BUSY; VU sessions then take the waiting over (busywait.ts).
 * better-sqlite3 is built with foreign keys on by default; TPROC-C declares
 * none, and we turn enforcement off explicitly.
 */
export interface Tuning {
  /** 'wal': put the file in WAL mode (persistent). 'keep': leave it as it is (admin reads). */
  journal: 'wal' | 'keep';
  /** Page cache per connection, KiB. */
  cacheKiB: number;
  /** Memory-mapped I/O window, bytes (reads come straight from the OS page cache). */
  mmapBytes: number;
  /** Override target.synchronous (the loader runs with 'off'). */
  synchronous?: SqliteTarget['synchronous'];
}

export const VU_TUNING: Tuning = { journal: 'wal', cacheKiB: 64 * 1024, mmapBytes: 1024 * 1024 * 1024 };
export const ADMIN_TUNING: Tuning = { journal: 'keep', cacheKiB: 128 * 1024, mmapBytes: 1024 * 1024 * 1024 };
/** createSchema: the new file goes into WAL mode from the start. */
export const CREATE_TUNING: Tuning = { ...ADMIN_TUNING, journal: 'wal' };

/** target.file, made absolute against the working directory (the server passes absolute paths). */
export function resolveFile(target: SqliteTarget): string {
  return isAbsolute(target.file) ? target.file : resolve(process.cwd(), target.file);
}

/** The -wal and -shm companions of a WAL database, and the rollback -journal. */
export function companionFiles(file: string): string[] {
  return [`${file}-wal`, `${file}-shm`, `${file}-journal`];
}

function osReason(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return code && !e.message.includes(code) ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}

/** SQLite reports a damaged file (e.g. a build killed in the middle of a commit). */
export function isCorrupt(e: unknown): boolean {
  const code = (x: unknown) => (typeof x === 'object' && x !== null ? (x as { code?: unknown }).code : undefined);
  return [code(e), code(e instanceof Error ? e.cause : undefined)].some((c) => typeof c === 'string' && c.startsWith('SQLITE_CORRUPT'));
}

function connectError(file: string, e: unknown): SledgeError {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  const fix =
    typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')
      ? 'The file is damaged (was a build interrupted?): delete the schema and build it again.'
      : code === 'SQLITE_NOTADB'
        ? 'It is not a SQLite database: set target.file to another path.'
        : 'Set target.file to a path in a directory Sledge can create and write.';
  return new SledgeError('SLEDGE_E_CONNECT', `Cannot open the SQLite database file ${file} (${osReason(e)}). ${fix}`, {
    field: 'target.file',
    cause: e,
  });
}

function applyPragmas(db: Db, target: SqliteTarget, t: Tuning): void {
  if (t.journal === 'wal') db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${(t.synchronous ?? target.synchronous).toUpperCase()}`);
  db.pragma(`busy_timeout = ${Math.trunc(target.busyTimeoutMs)}`);
  db.pragma('foreign_keys = OFF');
  db.pragma(`cache_size = -${Math.trunc(t.cacheKiB)}`);
  db.pragma(`mmap_size = ${Math.trunc(t.mmapBytes)}`);
  db.pragma('temp_store = MEMORY');
}

/**
 * Open (and create) the database file for a schema build: creates missing
 * parent directories. A path that cannot be created or written is a
 * SLEDGE_E_CONNECT on target.file with the OS reason.
 */
export function openForCreate(target: SqliteTarget, t: Tuning): Db {
  const file = resolveFile(target);
  const Database = dbConstructor();
  let db: Db | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    db = new Database(file, { timeout: target.busyTimeoutMs });
    applyPragmas(db, target, t);
    return db;
  } catch (e) {
    db?.close();
    throw connectError(file, e);
  }
}

/**
 * Open an existing database (VUs, loaders, admin reads). A missing file is
 * SLEDGE_E_SCHEMA_MISSING: build the schema first.
 */
export function openExisting(target: SqliteTarget, t: Tuning): Db {
  const file = resolveFile(target);
  if (!existsSync(file)) {
    throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `There is no SQLite database at ${file}: build the schema of the workload you want to run in it first (Schema page, or sledge build with the same --file).`, {
      field: 'target.file',
    });
  }
  const Database = dbConstructor();
  let db: Db | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: target.busyTimeoutMs });
    applyPragmas(db, target, t);
    return db;
  } catch (e) {
    db?.close();
    throw connectError(file, e);
  }
}
