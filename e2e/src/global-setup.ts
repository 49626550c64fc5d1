import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.js';
import { jobToEnd } from './ui.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A 1-warehouse SQLite TPROC-C file built once for the run (read it, copy it; never open it in place). */
    sqliteTprocc: string;
  }
}

let dir = '';

/**
 * Built once before the browser files: a 1-warehouse SQLite TPROC-C schema
 * (the same REST body as a 1-warehouse, 1-build-VU build from the Schema
 * page), which files whose subject is not the build copy into their server's
 * data directory (`copySqliteTprocc` in ui.ts) instead of building their own.
 */
export async function setup(project: TestProject): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'sledge-e2e-prebuilt-'));
  const file = join(dir, 'tprocc-1wh.sqlite');
  const server = await startServer();
  try {
    const job = await jobToEnd(server.url, { type: 'build', target: { engine: 'sqlite', file }, tprocc: { warehouses: 1, buildVus: 1 } }, { timeoutMs: 300_000 });
    if (job.status !== 'completed') throw new Error(`the shared SQLite TPROC-C build ended ${job.status}: ${JSON.stringify(job.error)}\n${server.log()}`);
  } finally {
    await server.stop();
  }
  project.provide('sqliteTprocc', file);
}

export function teardown(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
