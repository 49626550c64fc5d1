import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { fill, nav, pickSqlite } from './ui.js';

/**
 * Put a copy of the run's prebuilt 1-warehouse SQLite TPROC-C file (src/global-setup.ts) at `file`
 * under the server's data directory, for a test whose subject is not the build; returns its path.
 */
export function copySqliteTprocc(dataDir: string, file: string): string {
  const dest = join(dataDir, file);
  const src = inject('sqliteTprocc');
  copyFileSync(src, dest);
  if (existsSync(`${src}-wal`)) copyFileSync(`${src}-wal`, `${dest}-wal`);
  return dest;
}

/**
 * The Target and Schema pages as `buildSqliteTprocc` leaves them (SQLite, file `file`, 1 warehouse,
 * 1 build VU), on a copy of the prebuilt schema instead of a build of its own.
 */
export async function useSqliteTprocc(page: Page, base: string, dataDir: string, file: string): Promise<void> {
  copySqliteTprocc(dataDir, file);
  await pickSqlite(page, base, file);
  await nav(page, 'Schema');
  await fill(page, 'tprocc.warehouses', '1');
  await fill(page, 'tprocc.buildVus', '1');
}
