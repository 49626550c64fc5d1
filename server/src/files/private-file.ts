import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { SledgeError } from '@sledge/protocol';

/**
 * Files Sledge writes for a user under its data directory: saved scripts
 * (savescript), job artifacts (`jobs ID save`), connect pool files, datagen
 * output (TPROC-C/TPROC-H data files, manifests, load scripts). Each is
 * owner-only (0600) in an owner-only directory (0700), and no path Sledge
 * writes follows a symbolic link or replaces something that is not its own:
 *
 * - the directory is refused (SLEDGE_E_CONFLICT) when it is a symbolic link,
 *   not a directory, or another user's;
 * - the bytes go to a fresh file opened O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600
 *   (never an existing file, never through a link), then renamed over the
 *   name (rename replaces the directory entry, it never writes through it);
 * - the name is refused when it holds a symbolic link, a directory or
 *   another user's file, which stay as they were.
 */

const conflict = (message: string, field: string) => new SledgeError('SLEDGE_E_CONFLICT', message, { field });
const myUid = (): number | undefined => process.getuid?.();
const notOurs = (st: Stats): boolean => {
  const uid = myUid();
  return uid !== undefined && st.uid !== uid;
};

/** `dir` made ready for private files: created 0700 when missing; refused when it is a link, not a directory, or not ours. */
export function privateDir(dir: string, field: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw conflict(`${dir} is a symbolic link: Sledge writes only into a directory of its own (remove the link)`, field);
  if (!st.isDirectory()) throw conflict(`${dir} is not a directory (remove it)`, field);
  if (notOurs(st)) throw conflict(`${dir} belongs to another user: Sledge writes only into a directory of its own`, field);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** What is at `file` now, when it is something a write must not replace; undefined when the name is free or holds our own regular file. */
function inTheWay(file: string): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (!st.isFile()) return 'not a regular file';
  if (notOurs(st)) return "another user's file";
  return undefined;
}

const refusal = (file: string, what: string, field: string) =>
  conflict(`${file} is ${what}: Sledge does not write through it or replace it (remove it, or choose another name)`, field);

/** Owner-only modes a private file may have: 0600, or 0700 for a script meant to be run. */
export type PrivateMode = 0o600 | 0o700;

export interface PrivateWriteOptions {
  /** 0600 unless the file is a script to run (0700). */
  mode?: PrivateMode;
  /** fsync before the rename (default true); a file rewritten often whose loss a resume survives may skip it. */
  sync?: boolean;
}

/**
 * Write `data` as `dir`/`name` (owner-only; see the file comment) and return
 * the path. `name` must be a bare file name (the caller checks it); `field`
 * is the input field a refusal names.
 */
export function writePrivateFile(dir: string, name: string, data: string | Uint8Array, field: string, opts: PrivateWriteOptions = {}): string {
  const mode = opts.mode ?? 0o600;
  privateDir(dir, field);
  const file = join(dir, name);
  const before = inTheWay(file);
  if (before) throw refusal(file, before, field);
  const tmp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fchmodSync(fd, mode);
    if (opts.sync !== false) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  // Checked again just before the rename: a link planted meanwhile is refused, not replaced.
  const now = inTheWay(file);
  if (now) {
    unlinkSync(tmp);
    throw refusal(file, now, field);
  }
  renameSync(tmp, file);
  return file;
}

/**
 * A file descriptor for streaming a fresh `dir`/`name` (datagen's data
 * files): Sledge's own earlier file of that name is removed first; a link,
 * a directory or another user's file there is refused and left as it was;
 * the new file is opened O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, so a link
 * planted meanwhile fails the open instead of being followed. The caller
 * made `dir` ready (privateDir) and closes the descriptor.
 */
export function openPrivateFile(dir: string, name: string, field: string): number {
  const file = join(dir, name);
  const what = inTheWay(file);
  if (what) throw refusal(file, what, field);
  try {
    unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  try {
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    fchmodSync(fd, 0o600);
    return fd;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP') throw refusal(file, code === 'ELOOP' ? 'a symbolic link' : 'something created meanwhile', field);
    throw e;
  }
}

/**
 * A file descriptor to continue Sledge's own `dir`/`name` (a resumed
 * datagen): read-write, never through a link (O_NOFOLLOW), and made 0600.
 */
export function reopenPrivateFile(dir: string, name: string, field: string): number {
  const file = join(dir, name);
  const what = inTheWay(file);
  if (what) throw refusal(file, what, field);
  try {
    const fd = openSync(file, constants.O_RDWR | constants.O_NOFOLLOW);
    fchmodSync(fd, 0o600);
    return fd;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw refusal(file, 'a symbolic link', field);
    throw e;
  }
}
