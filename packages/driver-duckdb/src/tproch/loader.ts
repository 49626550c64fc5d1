import { appendFileSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger, TprochGeneratedTable, TprochLoader } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import { STAGED_SUFFIX, stagingDir } from '../engine/loader.js';

/**
 * TPROC-H loader on DuckDB: stages each generated unit's rows ('csv' bulk
 * format: '|'-separated lines) in a file of its own under the target's
 * staging directory; finishSchema reads them all in with one COPY per table
 * (DuckDB's parallel CSV reader). Loaders run in the server's build worker
 * threads, where opening the database would make a second instance of it
 * in the process (engine/connection.ts): staging keeps every DuckDB access
 * on the admin's thread.
 */
class Loader implements TprochLoader {
  private readonly id = randomUUID().slice(0, 8);

  constructor(private readonly dir: string) {}

  async load(tables: readonly TprochGeneratedTable[]): Promise<void> {
    for (const t of tables) {
      if (Array.isArray(t.data)) throw new TypeError(`the DuckDB loader takes 'csv' rows; ${t.table} came as tuples`);
    }
    mkdirSync(this.dir, { recursive: true });
    for (const t of tables) {
      if (t.rows === 0) continue;
      appendFileSync(join(this.dir, `${t.table}.${this.id}${STAGED_SUFFIX}`), t.data as string | Uint8Array);
    }
  }

  async close(): Promise<void> {}
}

export function openTprochLoader(target: DuckdbTarget, _log: Logger): TprochLoader {
  return new Loader(stagingDir(target));
}
