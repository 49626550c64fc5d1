/**
 * Where jobs may put files on the server's disk: a SQLite target's `file`
 * and a datagen job's `dir`.
 *
 * - Relative paths resolve under the files root (SLEDGE_FILES_ROOT, else the
 *   data directory) and may not climb out of it with `..`.
 * - With SLEDGE_FILES_ROOT set, every path, absolute ones included, must lie
 *   under it (symbolic links are followed before the check).
 * - Without it, absolute paths are allowed where they can be created:
 *   Sledge creates missing directories under the root, but outside it only
 *   the last level (no directory trees at /nonexistent/...).
 * - The job store's own files (sledge.db, -wal, -shm, sledge.lock,
 *   sledge.reserve, secret.key) and the data directory itself are refused.
 * Every refusal is a SLEDGE_E_VALIDATION on the field, and nothing is created.
 */
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { existingAncestor } from '@sledge/jobstore';
import { SledgeError } from '@sledge/protocol';

export interface PathPolicy {
  /** Where relative paths resolve (absolute). */
  root: string;
  /** SLEDGE_FILES_ROOT was given: no path may leave the root. */
  confined: boolean;
  /** Files no job may use: the job store's. */
  reservedFiles: readonly string[];
  /** Directories no job may take over whole (the data directory). */
  reservedDirs: readonly string[];
}

const bad = (field: string, message: string) => new SledgeError('SLEDGE_E_VALIDATION', message, { field });

/** `child` is `parent` or lies below it. */
export const isInside = (parent: string, child: string): boolean => {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
};

/** The path with symbolic links of its existing part resolved (the missing rest appended). */
export function realish(path: string): string {
  const top = existingAncestor(path);
  let real: string;
  try {
    real = realpathSync(top);
  } catch {
    return path;
  }
  return top === path ? real : join(real, relative(top, path));
}

/** Resolve a job's file or directory path under the policy; throws SLEDGE_E_VALIDATION on `field`. */
export function resolveJobPath(input: string, policy: PathPolicy, field: string, kind: 'file' | 'dir'): string {
  if (input.includes('\0')) throw bad(field, `${field} contains a NUL character`);
  const abs = isAbsolute(input) ? resolve(input) : resolve(policy.root, input);
  if (!isAbsolute(input) && !isInside(policy.root, abs)) {
    throw bad(field, `${field} "${input}" climbs out of the files root ${policy.root}: relative paths stay under it (or give an absolute path)`);
  }
  const real = realish(abs);
  if (policy.confined && !(isInside(policy.root, abs) && isInside(realish(policy.root), real))) {
    throw bad(field, `${field} ${abs} is outside SLEDGE_FILES_ROOT ${policy.root}: use a path under it`);
  }
  const same = (r: string) => r === abs || realish(r) === real;
  const store = policy.reservedFiles.find(same);
  if (store) throw bad(field, `${field} ${abs} is one of the job store's own files (${basename(store)}): choose another ${kind === 'file' ? 'file name' : 'directory'}`);
  if (kind === 'dir') {
    const dir = policy.reservedDirs.find(same);
    if (dir) throw bad(field, `${field} ${abs} is the data directory that holds the job store: choose a directory of its own (a subdirectory is fine)`);
  }
  return abs;
}

/**
 * Check, creating nothing, that directory `dir` exists or can be created:
 * its deepest existing ancestor is a writable directory, and outside the
 * files root at most one level is missing. Throws SLEDGE_E_VALIDATION on `field`.
 */
export function assertCreatable(dir: string, policy: PathPolicy, field: string): void {
  const top = existingAncestor(dir);
  if (!statSync(top).isDirectory()) {
    throw bad(field, `${field} ${dir} cannot be created: ${top} is a file, not a directory (ENOTDIR): choose another path`);
  }
  if (top !== dir && top !== dirname(dir) && !isInside(policy.root, dir)) {
    const first = join(top, relative(top, dir).split(sep)[0] ?? '');
    throw bad(field, `${field} ${dir} is not created: ${first} does not exist, and outside ${policy.root} Sledge creates no directory trees; create it first, or use a path under ${policy.root}`);
  }
  try {
    accessSync(top, constants.W_OK | constants.X_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'EROFS' ? 'the file system is read-only' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
    throw bad(field, `${field} ${dir} ${existsSync(dir) ? 'is not writable' : `cannot be created in ${top}`} (${code}: ${why}): choose a directory the server can write`);
  }
}
