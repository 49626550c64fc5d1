import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINES, WORKLOADS, type EngineId, type WorkloadId } from '@sledge/protocol';

/**
 * Folders under an engine that are not (yet) a registered workload:
 * `metrics`, the engine's own monitoring statements (ASH) that every
 * workload shares; `chbench`, CH-benCHmark's three extra tables and 22
 * analytic queries (docs/chbench.md), there before the workload is
 * registered in protocol; and `engine`, the statements of the drivers'
 * engine-level sessions that any workload uses (the query session: session
 * settings, backend id, cancel, explain).
 */
const EXTRA_AREAS = ['metrics', 'chbench', 'engine'] as const;

/** The folder under an engine: a workload's files (`tprocc`), or one of EXTRA_AREAS. */
export type SqlWorkload = WorkloadId | (typeof EXTRA_AREAS)[number];

/**
 * This package's directory. The module runs from src/ (tests) or dist/
 * (everything else); both sit one level below it, beside the engine folders
 * that ship inside the package.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Engines that read another engine's file when they have none of their own,
 * in lookup order: MariaDB keeps only the files that differ from MySQL's.
 * Every other engine reads only its own folder.
 */
const FALLBACK: Readonly<Partial<Record<EngineId, readonly EngineId[]>>> = { mariadb: ['mysql'] };

const AREAS: readonly string[] = [...new Set([...WORKLOADS, ...EXTRA_AREAS])];

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

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * Every file called `name` along the lookup order, own folder first (for
 * files read statement by statement with fallback, like MariaDB's ash.sql
 * that holds only the statements that differ from MySQL's).
 */
export function sqlFileLayers(engine: EngineId, workload: SqlWorkload, name: string): string[] {
  checkArgs(engine, workload, name);
  return searchDirs(engine, workload)
    .map((d) => join(d.dir, name))
    .filter(isFile);
}

/** Absolute path of an engine's SQL file: its own, else the first fallback engine's. */
export function sqlFile(engine: EngineId, workload: SqlWorkload, name: string): string {
  const found = sqlFileLayers(engine, workload, name)[0];
  if (found === undefined) {
    throw new Error(`${name} not found for ${engine} (${workload}) in ${searchDirs(engine, workload).map((d) => d.dir).join(', ')}`);
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
  /** The engine folder holding it: the engine itself, or a fallback (mysql for a MariaDB file it does not override). */
  from: EngineId;
}

/** Every file an engine reads for a workload, fallbacks resolved (own file first), sorted by name. */
export function sqlFiles(engine: EngineId, workload: SqlWorkload): SqlFileEntry[] {
  checkArgs(engine, workload);
  const out = new Map<string, SqlFileEntry>();
  for (const { engine: from, dir } of searchDirs(engine, workload)) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!out.has(name) && statSync(path).isFile()) out.set(name, { name, path, from });
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
