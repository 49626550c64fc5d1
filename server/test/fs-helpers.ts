import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';

/** Can this process mount a tmpfs (root with CAP_SYS_ADMIN)? Tried once. */
let canMount: boolean | undefined;
function mountable(): boolean {
  if (canMount !== undefined) return canMount;
  canMount = false;
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    canMount = true;
  } catch {
    canMount = false;
  }
  return canMount;
}

/** Mount a tmpfs of `size` (e.g. "3m") at `dir`, with extra options; false when this process may not mount. */
export function mountTmpfs(dir: string, size: string, extra: string[] = []): boolean {
  if (!mountable()) return false;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', [`size=${size}`, 'mode=0755', ...extra].join(','), 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    canMount = false;
    return false;
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}

/**
 * A directory in which nothing can be created, and the code the OS gives:
 * a read-only tmpfs when this process may mount one (root), else a
 * directory without write permission (EACCES; root would ignore that).
 */
export function unwritableDir(dir: string): { code: 'EROFS' | 'EACCES'; undo: () => void } {
  mkdirSync(dir, { recursive: true });
  if (mountTmpfs(dir, '1m', ['ro'])) return { code: 'EROFS', undo: () => unmount(dir) };
  if (process.getuid?.() === 0) throw new Error('running as root without permission to mount a tmpfs: no way to make an unwritable directory here');
  chmodSync(dir, 0o555);
  return { code: 'EACCES', undo: () => chmodSync(dir, 0o755) };
}

/** better-sqlite3 as the job store uses it (the server has no direct dependency on it). */
export function sqliteDatabase(): typeof import('better-sqlite3') {
  const fromServer = createRequire(fileURLToPath(new URL('../package.json', import.meta.url)));
  const fromJobstore = createRequire(fromServer.resolve('@sledge/jobstore'));
  return fromJobstore('better-sqlite3') as typeof import('better-sqlite3');
}
