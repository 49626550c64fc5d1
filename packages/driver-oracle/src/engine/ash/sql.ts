import { sqlSet } from '@sledge/sql';
import { cleanStatement } from '../sql-text.js';

/** The ASH statements, packages/sql/oracle/metrics/ash.sql. */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = ['pack_access', 'sessions', 'ash_latest', 'ash_since'] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

const ash = sqlSet<typeof ASH_SQL_FILE>('oracle', 'metrics', { clean: cleanStatement });

/** One named statement of ash.sql, sendable through the driver (comments and ';' trimmed). */
export function ashStatement(name: AshStatement): string {
  return ash.statement(ASH_SQL_FILE, name);
}
