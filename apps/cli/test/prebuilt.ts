import { copyFileSync, existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { inject } from 'vitest';

/**
 * A copy of the sqlite tier's prebuilt 1-warehouse SQLite TPROC-C file (test/prebuilt-setup.ts) at `file`
 * (relative: under `dataDir`, where `--local --data-dir dataDir` resolves `--file`), for a test whose
 * subject is not the build; returns its path.
 */
export function copySqliteTprocc(dataDir: string, file = 'tprocc.sqlite'): string {
  const dest = isAbsolute(file) ? file : join(dataDir, file);
  const src = inject('sqliteTprocc');
  copyFileSync(src, dest);
  if (existsSync(`${src}-wal`)) copyFileSync(`${src}-wal`, `${dest}-wal`);
  return dest;
}
