import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql } from '@sledge/core';
import { cleanStatement } from '../sqlfiles.js';

/** The ASH statements, sql/db2/metrics/ash.sql ('@'-terminated, as db2 -td@ runs them). */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = ['agents', 'set_client_applname'] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

const METRICS_DIR = join('sql', 'db2', 'metrics');

/** Walk up from this module (src/ash or dist/ash) to the repository root holding sql/db2/metrics. */
export function findMetricsDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, METRICS_DIR);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find ${METRICS_DIR} above ${dirname(from)}`);
    dir = up;
  }
}

let cache: Record<string, string> | undefined;

/** One named statement of ash.sql, comments and the '@' terminator trimmed. */
export function ashStatement(name: AshStatement): string {
  if (!cache) {
    const raw = parseNamedSql(readFileSync(join(findMetricsDir(), ASH_SQL_FILE), 'utf8'));
    cache = {};
    for (const [k, v] of Object.entries(raw)) cache[k] = cleanStatement(v);
  }
  const s = cache[name];
  if (s === undefined) throw new Error(`${METRICS_DIR}/${ASH_SQL_FILE} has no statement named "${name}"`);
  return s;
}
