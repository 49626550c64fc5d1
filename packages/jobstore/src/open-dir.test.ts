import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobStore } from './store.js';
import { JobStoreOpenError } from './db.js';
import { tempDir } from './test/helpers.js';

/**
 * A directory nothing can be created in, and the code the OS gives: a
 * read-only tmpfs when we may mount one (root), else a directory without
 * write permission (EACCES: root would ignore that).
 */
function unwritableDir(): { dir: string; code: string; undo: () => void } {
  const dir = join(tempDir(), 'locked');
  mkdirSync(dir);
  if (process.getuid?.() === 0) {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir], { stdio: 'ignore' });
      return { dir, code: 'EROFS', undo: () => execFileSync('umount', [dir]) };
    } catch {
      // no mount permission in this container: fall through
    }
  }
  chmodSync(dir, 0o555);
  return { dir, code: 'EACCES', undo: () => chmodSync(dir, 0o755) };
}

describe('an uncreatable data directory', () => {
  it('is reported with the real cause (EROFS/EACCES), not ENOENT', () => {
    const { dir, code, undo } = unwritableDir();
    if (code === 'EACCES' && process.getuid?.() === 0) {
      undo();
      throw new Error('running as root without permission to mount a read-only tmpfs: no way to make an unwritable directory here');
    }
    try {
      for (const path of [join(dir, 'data', 'sledge.db'), join(dir, 'a', 'b', 'c', 'sledge.db')]) {
        let err: unknown;
        try {
          JobStore.open(path);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(JobStoreOpenError);
        const msg = (err as Error).message;
        expect(msg).toContain(code);
        expect(msg).not.toContain('ENOENT');
        expect(msg).toContain(join(dir, path.includes('/a/') ? 'a' : 'data'));
      }
    } finally {
      undo();
    }
  });
});
