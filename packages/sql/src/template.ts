import { namedParts } from '@sledge/core';
import type { EngineId } from '@sledge/protocol';
import { readSqlPath, sqlFile, type SqlWorkload } from './files.js';

/** A part marker of a template: `-- name: x` in SQL and control files, `# name: x` in shell scripts. */
const MARKER = /^(?:--|#)\s*name:\s*([a-z_]+)\s*$/;

/**
 * Named parts of a template file (the datagen_load.* load-script templates):
 * each marker line starts a part that runs to the next marker; trailing empty
 * lines are dropped, leading ones kept. Text before the first marker
 * documents the template. Resolved as sqlFile does.
 */
export function sqlTemplate(engine: EngineId, workload: SqlWorkload, name: string): { path: string; parts: Map<string, string> } {
  const path = sqlFile(engine, workload, name);
  const parts = new Map<string, string>();
  for (const { name: part, lines } of namedParts(readSqlPath(path), MARKER)) {
    while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
    if (parts.has(part)) throw new Error(`${path}: part "${part}" is defined twice`);
    parts.set(part, lines.join('\n'));
  }
  return { path, parts };
}
