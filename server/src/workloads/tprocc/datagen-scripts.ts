/**
 * Load scripts for `datagen` directories: one per engine, each ingesting the
 * CSV files with the engine's own tool (psql \copy, mysql/mariadb LOAD DATA
 * LOCAL INFILE, bcp, sqlldr, db2 LOAD). Each driver's TPROC-C hooks render
 * their own (`datagenScripts`, from packages/sql/<engine>/tprocc/datagen_load.*
 * templates and the engine's tables.sql); this module only writes them.
 */
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatagenLayout } from '@sledge/core';
import { ENGINES } from '@sledge/protocol';
import { loadDriver } from '../../shared/drivers.js';

export type { DatagenFile, DatagenLayout } from '@sledge/core';

/** Write (atomically) one file. */
function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * Write every engine's load script (and control/format files) into
 * layout.dir, in engine order. Returns the names written.
 */
export async function writeLoadScripts(layout: DatagenLayout): Promise<string[]> {
  const written: string[] = [];
  for (const engine of ENGINES) {
    const hooks = (await loadDriver(engine)).workloads.tprocc;
    for (const f of hooks?.datagenScripts?.(layout) ?? []) {
      writeAtomic(join(layout.dir, f.name), f.text, f.executable ? 0o755 : 0o644);
      written.push(f.name);
    }
  }
  return written;
}

/** Names of the script files a datagen directory may hold (for stray-file checks). */
export const SCRIPT_NAME = /^(load_(postgresql|mysql|mariadb|db2)\.sql|load_(mssql|oracle)\.sh|mssql_[a-z_]+\.fmt|oracle_[a-z_]+\.ctl)$/;
