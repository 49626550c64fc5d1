import { SledgeError } from '@sledge/protocol';

const sqliteCode = (e: unknown): string | undefined => {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
};

/**
 * The SQLite result codes that mean "the disk under the store refused a
 * write" rather than "this request is wrong": a full file system or the
 * store's size cap (SQLITE_FULL), and write/sync errors (SQLITE_IOERR_*: a
 * file-size limit gives EFBIG, which SQLite reports as SQLITE_IOERR_WRITE).
 */
export function storageFaultKind(e: unknown): 'full' | 'io' | undefined {
  const code = sqliteCode(e);
  if (code === undefined) return undefined;
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_READONLY_DBMOVED' || code === 'SQLITE_CANTOPEN') return 'io';
  return undefined;
}

/** A typed error for a write the job store's disk refused, naming the data directory. */
export function storageError(e: unknown, file: string, dir: string): SledgeError | undefined {
  const kind = storageFaultKind(e);
  if (!kind) return undefined;
  const code = sqliteCode(e) ?? 'SQLITE_ERROR';
  return kind === 'full'
    ? new SledgeError(
        'SLEDGE_E_STORAGE_FULL',
        `the data directory ${dir} is full: the job store ${file} cannot grow (${code}). Nothing stored was lost; free space there (or raise the store's size cap) and try again`,
        { cause: e },
      )
    : new SledgeError(
        'SLEDGE_E_STORAGE_IO',
        `the job store ${file} cannot be written (${code}: ${e instanceof Error ? e.message : String(e)}): check the disk holding ${dir} (full, over a file-size limit, or failing)`,
        { cause: e },
      );
}

/** True for the typed errors above: a job that meets one stops writing and fails; the server stays up. */
export function isStorageError(e: unknown): e is SledgeError {
  return SledgeError.is(e) && (e.code === 'SLEDGE_E_STORAGE_FULL' || e.code === 'SLEDGE_E_STORAGE_IO');
}
