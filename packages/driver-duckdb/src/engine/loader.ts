import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckdbTarget } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { MEMORY, resolveFile } from './connection.js';

/** packages/sql/duckdb/engine/loader.sql: the COPY of staged files. */
const sql = sqlSet<'loader.sql'>('duckdb', 'engine');

/** Staged files of a table end with this. */
export const STAGED_SUFFIX = '.tbl';

/**
 * Where loaders stage generated rows for a target: `<file>.load/` beside the
 * database file; for ':memory:', a directory of this process in the OS temp
 * directory.
 */
export function stagingDir(target: DuckdbTarget): string {
  const file = resolveFile(target);
  return file === MEMORY ? join(tmpdir(), `sledge-duckdb-memory-${process.pid}.load`) : `${file}.load`;
}

/** A quoted SQL text literal. */
export const quoteText = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The staged file names of a table (`<table>.<loader>.tbl`). */
export function stagedFiles(dir: string, table: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.startsWith(`${table}.`) && f.endsWith(STAGED_SUFFIX));
}

/**
 * How staged files separate their values: '|' (TPROC-H's 'csv' rows, dbgen's
 * .tbl form: loader.sql copy_staged) or ',' (TPROC-C's 'csv' rows:
 * copy_staged_csv).
 */
export type StagedDelimiter = '|' | ',';

/** COPY <table> FROM the glob of its staged files. `table` is one of the workload's own table names. */
export function copyStatement(dir: string, table: string, delimiter: StagedDelimiter = '|'): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a table name: ${table}`);
  return sql
    .statement('loader.sql', delimiter === '|' ? 'copy_staged' : 'copy_staged_csv')
    .replaceAll('{{table}}', table)
    .replaceAll('{{files}}', () => quoteText(join(dir, `${table}.*${STAGED_SUFFIX}`)));
}

export function removeStaging(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** One generated unit's table as a workload's generator hands it over in a text bulk format. */
export interface StagedTable {
  readonly table: string;
  readonly rows: number;
  readonly data: unknown;
}

/**
 * A build worker's loader on DuckDB (TPROC-H and TPROC-C): stages each
 * generated unit's rows (a text bulk format) in a file of its own under the
 * target's staging directory; the admin's finishSchema reads them all in
 * with one COPY per table (DuckDB's parallel CSV reader). Loaders run in the
 * server's build worker threads, where opening the database would make a
 * second instance of it in the process (engine/connection.ts): staging
 * keeps every DuckDB access on the admin's thread.
 */
export class StagingLoader {
  private readonly id = randomUUID().slice(0, 8);

  constructor(private readonly dir: string) {}

  async load(tables: readonly StagedTable[]): Promise<void> {
    for (const t of tables) {
      if (typeof t.data !== 'string' && !(t.data instanceof Uint8Array)) throw new TypeError(`the DuckDB loader takes text rows ('csv' bulk format); ${t.table} came as tuples`);
    }
    mkdirSync(this.dir, { recursive: true });
    for (const t of tables) {
      if (t.rows === 0) continue;
      appendFileSync(join(this.dir, `${t.table}.${this.id}${STAGED_SUFFIX}`), t.data as string | Uint8Array);
    }
  }

  async close(): Promise<void> {}
}
