import { sqlSet, type SqlLayer } from '@sledge/sql';
import type { Flavour } from '../flavour.js';
import { dropCommentLines } from '../sql-text.js';

/** The ASH statements, packages/sql/<engine>/metrics/ash.sql. */
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

/**
 * The ASH statements of a flavour, statement by statement: the engine's
 * own file first, then its fallbacks (MariaDB's file holds only what
 * differs from MySQL's).
 */
export class AshSql {
  private readonly layers: SqlLayer[];

  constructor(readonly flavour: Flavour) {
    this.layers = sqlSet<typeof ASH_SQL_FILE>(flavour.engine, 'metrics', { clean: dropCommentLines }).layers(ASH_SQL_FILE);
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
