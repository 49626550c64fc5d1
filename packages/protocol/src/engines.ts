import { StringEnum } from './util.js';

/** Every engine Sledge can drive. `sqlite` is the embedded default. */
export const ENGINES = ['sqlite', 'postgresql', 'mysql', 'mariadb', 'mssql', 'oracle', 'db2'] as const;
export type EngineId = (typeof ENGINES)[number];
export const EngineIdSchema = StringEnum(ENGINES, { $id: 'EngineId' });

/** The name printed in the TEST RESULT line and stored with jobs (HammerDB's display names). */
export const ENGINE_DISPLAY: Record<EngineId, string> = {
  sqlite: 'SQLite',
  postgresql: 'PostgreSQL',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  mssql: 'SQL Server',
  oracle: 'Oracle',
  db2: 'Db2',
};

export function isEngineId(x: unknown): x is EngineId {
  return typeof x === 'string' && (ENGINES as readonly string[]).includes(x);
}
