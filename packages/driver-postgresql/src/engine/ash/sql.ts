import { sqlSet } from '@sledge/sql';

/** The ASH statements, packages/sql/postgresql/metrics/ash.sql. */
export const ASH_SQL_FILE = 'ash.sql';
export const ASH_STATEMENTS = ['visibility', 'pgsentinel_installed', 'activity', 'pgsentinel_since', 'pgsentinel_latest'] as const;
export type AshStatement = (typeof ASH_STATEMENTS)[number];

const ash = sqlSet<typeof ASH_SQL_FILE>('postgresql', 'metrics');

/** One named statement of ash.sql; throws naming the file when it is missing. */
export function ashStatement(name: AshStatement): string {
  return ash.statement(ASH_SQL_FILE, name);
}
