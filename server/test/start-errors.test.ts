import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwritableDir } from './fs-helpers.js';

const MAIN = new URL('../dist/main.js', import.meta.url).pathname;

/** A data directory the server cannot create: one line naming the real cause (EROFS / EACCES), exit 1, no stack trace. */
describe('starting on an unusable data directory', () => {
  it('reports the real cause of an uncreatable data directory, not ENOENT', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sledge-start-'));
    const locked = join(root, 'locked');
    const { code, undo } = unwritableDir(locked);
    try {
      const child = spawn(process.execPath, [MAIN], {
        env: { ...process.env, SLEDGE_DATA_DIR: join(locked, 'data'), PORT: '0', HOST: '127.0.0.1', SLEDGE_AGENT: 'off' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exit = await Promise.race([new Promise<number | null>((r) => child.once('exit', r)), new Promise<'running'>((r) => setTimeout(() => r('running'), 30_000))]);
      if (exit === 'running') child.kill('SIGKILL');
      expect(exit, err).toBe(1);
      expect(err).toMatch(new RegExp(`^Sledge cannot start: cannot open the job store at ${join(locked, 'data', 'sledge.db')}: cannot create the directory .*${code}`));
      expect(err).not.toContain('ENOENT');
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      undo();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
