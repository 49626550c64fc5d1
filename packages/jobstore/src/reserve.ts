import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { makePrivate } from './fsutil.js';

/** Bytes kept in the reserve file: room for the few pages that record a job's failure on a full disk. */
export const RESERVE_BYTES = 256 * 1024;

/**
 * Make sure the reserve file exists at full size. Returns false when the
 * disk has no room for it (ENOSPC, EDQUOT, EFBIG): the data directory is
 * still full. Other errors are thrown.
 */
export function ensureReserve(path: string): boolean {
  if (existsSync(path) && statSync(path).size >= RESERVE_BYTES) return true;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w', 0o600);
    const chunk = Buffer.alloc(64 * 1024);
    for (let written = 0; written < RESERVE_BYTES; ) written += writeSync(fd, chunk, 0, Math.min(chunk.length, RESERVE_BYTES - written));
    closeSync(fd);
    fd = undefined;
    makePrivate([path]);
    return true;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') {
      rmSync(path, { force: true });
      return false;
    }
    throw e;
  }
}

/** Give the reserve's space back to the file system. True when there was one. */
export function releaseReserve(path: string): boolean {
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
}
