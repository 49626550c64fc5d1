import { sqlSet } from '@sledge/sql';
import { cleanStatement } from '../sql-text.js';

/** The ASH statements, packages/sql/db2/metrics/ash.sql ('@'-terminated, as db2 -td@ runs them). */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = ['agents', 'set_client_applname'] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

const ash = sqlSet<typeof ASH_SQL_FILE>('db2', 'metrics', { clean: cleanStatement });

/** One named statement of ash.sql, comments and the '@' terminator trimmed. */
export function ashStatement(name: AshStatement): string {
  return ash.statement(ASH_SQL_FILE, name);
}
