import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINES, type EngineId } from '@sledge/protocol';
import { aliasesOf, aliasOf } from './aliases.js';
import { AREAS, type SqlWorkload } from './areas.js';

export type { SqlWorkload } from './areas.js';

/**
 * This package's directory. The module runs from src/ (tests) or dist/
 * (everything else); both sit one level below it, beside the engine folders
 * that ship inside the package.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Engines that read another engine's file when they have none of their own,
 * in lookup order: MariaDB keeps only the files that differ from MySQL's.
 * Every other engine reads its own folder, and the single files that
 * aliases.ts declares as another engine's.
 */
const FALLBACK: Readonly<Partial<Record<EngineId, readonly EngineId[]>>> = { mariadb: ['mysql'] };

function checkArgs(engine: EngineId, workload: SqlWorkload, name?: string): void {
  if (!(ENGINES as readonly string[]).includes(engine)) throw new Error(`no SQL for engine "${engine}": engines are ${ENGINES.join(', ')}`);
  if (!AREAS.includes(workload)) throw new Error(`no SQL for workload "${workload}": workloads are ${AREAS.join(', ')}`);
  if (name !== undefined && (name === '' || name === '.' || name === '..' || /[/\\]/.test(name))) {
    throw new Error(`SQL file name "${name}" must be a plain file name (no directory)`);
  }
}

/** The engines whose folders an engine's SQL is read from, in lookup order (its own first). */
export function sqlEngines(engine: EngineId): EngineId[] {
  return [engine, ...(FALLBACK[engine] ?? [])];
}

/** The folders searched for an engine's files of a workload, in lookup order. */
function searchDirs(engine: EngineId, workload: SqlWorkload): Array<{ engine: EngineId; dir: string }> {
  return sqlEngines(engine).map((e) => ({ engine: e, dir: join(ROOT, e, workload) }));
}

/** The folders searched for one file: the engine's, or for an alias (aliases.ts) the engine's whose file it is. */
function fileDirs(engine: EngineId, workload: SqlWorkload, name: string): Array<{ engine: EngineId; dir: string }> {
  const is = aliasOf(engine, workload, name);
  if (is === undefined) return searchDirs(engine, workload);
  // An alias with a file of the same name beside it would leave two texts: refuse rather than pick one.
  if (isFile(join(ROOT, engine, workload, name))) throw new Error(`${engine}/${workload}/${name} is declared as ${is}'s file (packages/sql/src/aliases.ts) and also exists: delete one`);
  return searchDirs(is, workload);
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * Every file called `name` along the lookup order, own folder first (for
 * files read statement by statement with fallback, like MariaDB's ash.sql
 * that holds only the statements that differ from MySQL's).
 */
export function sqlFileLayers(engine: EngineId, workload: SqlWorkload, name: string): string[] {
  checkArgs(engine, workload, name);
  return fileDirs(engine, workload, name)
    .map((d) => join(d.dir, name))
    .filter(isFile);
}

/** Absolute path of an engine's SQL file: its own, else the first fallback engine's. */
export function sqlFile(engine: EngineId, workload: SqlWorkload, name: string): string {
  const found = sqlFileLayers(engine, workload, name)[0];
  if (found === undefined) {
    throw new Error(`${name} not found for ${engine} (${workload}) in ${fileDirs(engine, workload, name).map((d) => d.dir).join(', ')}`);
  }
  return found;
}

const texts = new Map<string, string>();

/** Text of a file by the path the resolver gave, read once. */
export function readSqlPath(path: string): string {
  let t = texts.get(path);
  if (t === undefined) {
    t = readFileSync(path, 'utf8');
    texts.set(path, t);
  }
  return t;
}

/** Text of an engine's SQL file (resolved as sqlFile does), read once per process. */
export function sqlText(engine: EngineId, workload: SqlWorkload, name: string): string {
  return readSqlPath(sqlFile(engine, workload, name));
}

/** One file an engine reads: its name, where it is, and whose folder it comes from. */
export interface SqlFileEntry {
  name: string;
  path: string;
  /** The engine folder holding it: the engine itself, a fallback (mysql for a MariaDB file it does not override), or the engine an alias names (postgresql for DuckDB's chbench/queries.sql). */
  from: EngineId;
}

/** Every file an engine reads for a workload, fallbacks and aliases resolved (own file first), sorted by name. */
export function sqlFiles(engine: EngineId, workload: SqlWorkload): SqlFileEntry[] {
  checkArgs(engine, workload);
  const out = new Map<string, SqlFileEntry>();
  for (const { name } of aliasesOf(engine, workload)) {
    const from = fileDirs(engine, workload, name).find((d) => isFile(join(d.dir, name)));
    if (!from) throw new Error(`${name} not found for ${engine} (${workload}) in ${fileDirs(engine, workload, name).map((d) => d.dir).join(', ')}`);
    out.set(name, { name, path: join(from.dir, name), from: from.engine });
  }
  for (const { engine: from, dir } of searchDirs(engine, workload)) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!out.has(name) && statSync(path).isFile()) out.set(name, { name, path, from });
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
