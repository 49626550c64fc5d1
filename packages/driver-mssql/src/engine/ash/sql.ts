import { sqlSet } from '@sledge/sql';
import { cleanStatement } from '../sql-text.js';

/** The ASH statements, packages/sql/mssql/metrics/ash.sql. */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = ['permission', 'requests'] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

const ash = sqlSet<typeof ASH_SQL_FILE>('mssql', 'metrics', { clean: cleanStatement });

/** One named statement of ash.sql, comments trimmed; throws naming the file when it is missing. */
export function ashStatement(name: AshStatement): string {
  return ash.statement(ASH_SQL_FILE, name);
}
