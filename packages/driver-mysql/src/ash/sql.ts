import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseNamedSql } from '@sledge/core';
import type { Flavour } from '../flavour.js';
import { findSqlRoot } from '../sqlfiles.js';

/** The ASH statements, sql/<dialect>/metrics/ash.sql. */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = [
  'performance_schema_enabled',
  'consumers',
  'enable_consumers',
  'enable_instruments',
  'ps_sessions',
  'processlist',
  'row_lock_waits',
] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

/** Full-line `--` comments out, so the text is what the server gets. */
const dropComments = (sql: string) =>
  sql
    .split('\n')
    .filter((l) => !l.trim().startsWith('--'))
    .join('\n')
    .trim();

/**
 * The ASH statements of a flavour, statement by statement: the dialect's
 * own file first, then its fallbacks (MariaDB's file holds only what
 * differs from MySQL's).
 */
export class AshSql {
  private readonly layers: Array<{ path: string; statements: Record<string, string> }>;

  constructor(
    readonly flavour: Flavour,
    root: string = findSqlRoot(flavour.dialect),
  ) {
    this.layers = [];
    for (const dialect of [flavour.dialect, ...flavour.dialectFallback]) {
      const path = join(root, 'sql', dialect, 'metrics', ASH_SQL_FILE);
      if (!existsSync(path)) continue;
      const raw = parseNamedSql(readFileSync(path, 'utf8'));
      this.layers.push({ path, statements: Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, dropComments(v)])) });
    }
  }

  /** Which file a statement comes from (tests, messages). */
  source(name: AshStatement): string {
    const layer = this.layers.find((l) => name in l.statements);
    if (!layer) throw new Error(`no ${ASH_SQL_FILE} of ${this.flavour.engine} has a statement named "${name}"`);
    return layer.path;
  }

  get(name: AshStatement): string {
    for (const l of this.layers) {
      const s = l.statements[name];
      if (s !== undefined) return s;
    }
    throw new Error(`no ${ASH_SQL_FILE} of ${this.flavour.engine} has a statement named "${name}"`);
  }
}
