import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { fill, nav, pickSqlite } from './ui.js';

/** How long a copy waits for the run's prebuilt file (src/global-setup.ts builds it in the background). */
const PREBUILT_WAIT_MS = 300_000;

/** The run's prebuilt 1-warehouse SQLite TPROC-C file, once its background build has ended; throws the build's error when it failed. */
async function prebuiltFile(): Promise<string> {
  const src = inject('sqliteTprocc');
  const deadline = Date.now() + PREBUILT_WAIT_MS;
  for (;;) {
    if (existsSync(`${src}.ready`)) return src;
    if (existsSync(`${src}.failed`)) throw new Error(readFileSync(`${src}.failed`, 'utf8'));
    if (Date.now() > deadline) throw new Error(`the shared SQLite TPROC-C build (src/global-setup.ts) did not end within ${PREBUILT_WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Put a copy of the run's prebuilt 1-warehouse SQLite TPROC-C file (src/global-setup.ts) at `file`
 * under the server's data directory, for a test whose subject is not the build; returns its path.
 * Waits for the background build when it has not ended yet.
 */
export async function copySqliteTprocc(dataDir: string, file: string): Promise<string> {
  const dest = join(dataDir, file);
  const src = await prebuiltFile();
  copyFileSync(src, dest);
  if (existsSync(`${src}-wal`)) copyFileSync(`${src}-wal`, `${dest}-wal`);
  return dest;
}

/**
 * The Target and Schema pages as `buildSqliteTprocc` leaves them (SQLite, file `file`, 1 warehouse,
 * 1 build VU), on a copy of the prebuilt schema instead of a build of its own.
 */
export async function useSqliteTprocc(page: Page, base: string, dataDir: string, file: string): Promise<void> {
  await copySqliteTprocc(dataDir, file);
  await pickSqlite(page, base, file);
  await nav(page, 'Schema');
  await fill(page, 'tprocc.warehouses', '1');
  await fill(page, 'tprocc.buildVus', '1');
}
