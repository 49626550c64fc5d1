import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A directory could not be created: `code` is the operating system's reason for the level that failed. */
export class CreateDirectoryError extends Error {
  readonly code: string;
  readonly path: string;

  constructor(path: string, code: string, cause: unknown) {
    super(`cannot create ${path} (${code}${EXPLAIN[code] ? `: ${EXPLAIN[code]}` : ''})`, { cause });
    this.name = 'CreateDirectoryError';
    this.code = code;
    this.path = path;
  }
}

const EXPLAIN: Record<string, string> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a part of the path exists and is not a directory',
};

/** The deepest existing ancestor of `path` (itself when it exists). */
export function existingAncestor(path: string): string {
  let p = resolve(path);
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return p;
}

/**
 * mkdir -p that reports the real cause. Node's recursive mkdir reports ENOENT
 * when a level cannot be created on a read-only file system; this walks from
 * the deepest existing ancestor and creates one level at a time, so the error
 * names the level that failed and its own code (EROFS, EACCES, ENOSPC ...).
 * Returns the first directory it created, or undefined when all existed.
 */
export function createDirectory(dir: string): string | undefined {
  const target = resolve(dir);
  const missing: string[] = [];
  for (let p = target; !existsSync(p); p = dirname(p)) {
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  const top = existingAncestor(target);
  if (!statSync(top).isDirectory()) throw new CreateDirectoryError(target, top === target ? 'EEXIST' : 'ENOTDIR', new Error(`${top} is not a directory`));
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      if (code === 'EEXIST' && statSync(p).isDirectory()) continue; // created meanwhile by someone else
      throw new CreateDirectoryError(p === target ? target : `${target} (at ${p})`, code, e);
    }
  }
  return missing[0];
}

/** Owner read/write only, whatever the umask: chmod after creation. Missing files are skipped. */
export function makePrivate(files: readonly string[]): void {
  for (const f of files) {
    try {
      chmodSync(f, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}
