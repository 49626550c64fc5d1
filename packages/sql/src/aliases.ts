import type { EngineId } from '@sledge/protocol';
import type { SqlWorkload } from './areas.js';

/** One file an engine reads from another engine's folder: the same text word for word, kept once. */
export interface SqlAlias {
  engine: EngineId;
  workload: SqlWorkload;
  name: string;
  /** The engine whose file it is (its folder holds the file; the aliasing engine's folder has none of that name). */
  is: EngineId;
}

/**
 * Files that are another engine's, declared here and nowhere else, one by
 * one (unlike the fallback of a whole engine in files.ts): DuckDB's
 * CH-benCHmark queries are PostgreSQL's text (mod(), ascii(), substr(),
 * extract(year FROM ...) and TIMESTAMP literals mean the same in both;
 * postgresql/chbench/queries.sql says DuckDB reads it). An engine that
 * needs its own text deletes its line here and adds the file to its folder.
 */
export const SQL_ALIASES: readonly SqlAlias[] = [{ engine: 'duckdb', workload: 'chbench', name: 'queries.sql', is: 'postgresql' }];

/** The engine whose file an engine reads under this name, when the name is an alias. */
export function aliasOf(engine: EngineId, workload: SqlWorkload, name: string): EngineId | undefined {
  return SQL_ALIASES.find((a) => a.engine === engine && a.workload === workload && a.name === name)?.is;
}

/** An engine's aliased files of a workload. */
export function aliasesOf(engine: EngineId, workload: SqlWorkload): SqlAlias[] {
  return SQL_ALIASES.filter((a) => a.engine === engine && a.workload === workload);
}
