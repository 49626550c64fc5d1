/**
 * Load scripts for `datagen` directories: one per engine, each ingesting the
 * CSV files with the engine's own tool (psql \copy, mysql/mariadb LOAD DATA
 * LOCAL INFILE, bcp, sqlldr, db2 LOAD). Each driver's TPROC-C hooks render
 * their own (`datagenScripts`, from packages/sql/<engine>/tprocc/datagen_load.*
 * templates and the engine's tables.sql); this module only writes them.
 */
import type { DatagenLayout } from '@sledge/core';
import { ENGINES } from '@sledge/protocol';
import { writePrivateFile } from '../../files/private-file.js';
import { loadDriver } from '../../shared/drivers.js';

export type { DatagenFile, DatagenLayout } from '@sledge/core';

/**
 * Write every engine's load script (and control/format files) into
 * layout.dir, in engine order. Returns the names written.
 */
export async function writeLoadScripts(layout: DatagenLayout): Promise<string[]> {
  const written: string[] = [];
  for (const engine of ENGINES) {
    const hooks = (await loadDriver(engine)).workloads.tprocc;
    for (const f of hooks?.datagenScripts?.(layout) ?? []) {
      // Atomic and owner-only (0600, 0700 for a shell script), never through a planted link.
      writePrivateFile(layout.dir, f.name, f.text, 'datagen.dir', { mode: f.executable ? 0o700 : 0o600 });
      written.push(f.name);
    }
  }
  return written;
}

/** Names of the script files a datagen directory may hold (for stray-file checks). */
export const SCRIPT_NAME = /^(load_(postgresql|mysql|mariadb|db2)\.sql|load_(mssql|oracle)\.sh|mssql_[a-z_]+\.fmt|oracle_[a-z_]+\.ctl)$/;
