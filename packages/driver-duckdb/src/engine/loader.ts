import { existsSync, readdirSync, rmSync } from 'node:fs';
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

/** COPY <table> FROM the glob of its staged files. `table` is one of the workload's own table names. */
export function copyStatement(dir: string, table: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a table name: ${table}`);
  return sql
    .statement('loader.sql', 'copy_staged')
    .replaceAll('{{table}}', table)
    .replaceAll('{{files}}', () => quoteText(join(dir, `${table}.*${STAGED_SUFFIX}`)));
}

export function removeStaging(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
