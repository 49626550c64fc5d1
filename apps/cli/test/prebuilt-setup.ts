import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A 1-warehouse SQLite TPROC-C file built once for the sqlite tier (copy it: test/prebuilt.ts). */
    sqliteTprocc: string;
  }
}

let dir = '';

/**
 * globalSetup of the sqlite tier: `sledge build --local --db sqlite --warehouses 1` once,
 * for the files whose subject is not the build (they copy it instead of building their own).
 */
export function setup(project: TestProject): void {
  dir = mkdtempSync(join(tmpdir(), 'sledge-cli-prebuilt-'));
  const file = join(dir, 'tprocc-1wh.sqlite');
  const main = new URL('../dist/main.js', import.meta.url).pathname;
  const r = spawnSync(process.execPath, [main, 'build', '--local', '--data-dir', join(dir, 'data'), '--db', 'sqlite', '--file', file, '--warehouses', '1', '--quiet'], {
    encoding: 'utf8',
    env: { ...process.env, SLEDGE_SERVER: 'http://127.0.0.1:1' },
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`the shared SQLite TPROC-C build failed (exit ${r.status}): ${r.stderr}${r.error?.message ?? ''}`);
  project.provide('sqliteTprocc', file);
}

export function teardown(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
