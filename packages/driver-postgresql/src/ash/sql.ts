import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql, requireSql } from '@sledge/core';

/** The ASH statements, sql/postgresql/metrics/ash.sql. */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = ['visibility', 'pgsentinel_installed', 'activity', 'pgsentinel_since', 'pgsentinel_latest'] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

const METRICS_DIR = join('sql', 'postgresql', 'metrics');

/** Walk up from this module (src/ash or dist/ash) to the repository root holding sql/postgresql/metrics. */
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

/** One named statement of ash.sql; throws naming the file when it is missing. */
export function ashStatement(name: AshStatement): string {
  cache ??= parseNamedSql(readFileSync(join(findMetricsDir(), ASH_SQL_FILE), 'utf8'));
  return requireSql(cache, name, `${METRICS_DIR}/${ASH_SQL_FILE}`);
}
