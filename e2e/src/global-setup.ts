import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
let building: Promise<void> | undefined;

/**
 * A 1-warehouse SQLite TPROC-C schema built once for the run (the same REST
 * body as a 1-warehouse, 1-build-VU build from the Schema page), which files
 * whose subject is not the build copy into their server's data directory
 * (`copySqliteTprocc` in src/prebuilt.ts) instead of building their own.
 *
 * The build runs in the background: the files that never copy it (most of
 * them) start at once, and `copySqliteTprocc` waits for `<file>.ready` (or
 * `<file>.failed`, holding the error), written once the build's server has
 * stopped and the file is closed.
 */
export function setup(project: TestProject): void {
  dir = mkdtempSync(join(tmpdir(), 'sledge-e2e-prebuilt-'));
  const file = join(dir, 'tprocc-1wh.sqlite');
  building = build(file).then(
    () => writeFileSync(`${file}.ready`, ''),
    (e: unknown) => writeFileSync(`${file}.failed`, e instanceof Error ? e.message : String(e)),
  );
  project.provide('sqliteTprocc', file);
}

async function build(file: string): Promise<void> {
  const server = await startServer();
  try {
    const job = await jobToEnd(server.url, { type: 'build', target: { engine: 'sqlite', file }, tprocc: { warehouses: 1, buildVus: 1 } }, { timeoutMs: 300_000 });
    if (job.status !== 'completed') throw new Error(`the shared SQLite TPROC-C build ended ${job.status}: ${JSON.stringify(job.error)}\n${server.log()}`);
  } finally {
    await server.stop();
  }
}

export async function teardown(): Promise<void> {
  await building;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
