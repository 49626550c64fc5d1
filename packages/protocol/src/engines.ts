import { StringEnum } from './util.js';

/** Every engine Sledge can drive. `sqlite` is the embedded default; `duckdb` the embedded analytic engine. */
export const ENGINES = ['sqlite', 'postgresql', 'mysql', 'mariadb', 'mssql', 'oracle', 'db2', 'duckdb'] as const;
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
  duckdb: 'DuckDB',
};

export function isEngineId(x: unknown): x is EngineId {
  return typeof x === 'string' && (ENGINES as readonly string[]).includes(x);
}

/**
 * How a connection URL maps onto an engine's target (the CLI's `--url`):
 * `file` takes the whole text as the database file, `connectString` keeps
 * host:port/service as one field (Oracle Easy Connect), `host` splits host,
 * port, user, password and database.
 */
export interface EngineUrlForm {
  form: 'file' | 'connectString' | 'host';
  example: string;
}
export const ENGINE_URL: Record<EngineId, EngineUrlForm> = {
  sqlite: { form: 'file', example: 'sqlite:./tpcc.db' },
  postgresql: { form: 'host', example: 'postgres://user:password@host:5432/dbname' },
  mysql: { form: 'host', example: 'mysql://user:password@host:3306/database' },
  mariadb: { form: 'host', example: 'mariadb://user:password@host:3306/database' },
  mssql: { form: 'host', example: 'mssql://user:password@host:1433/database' },
  oracle: { form: 'connectString', example: 'oracle://user:password@host:1521/service' },
  db2: { form: 'host', example: 'db2://user:password@host:50000/database' },
  duckdb: { form: 'file', example: 'duckdb:./tpch.duckdb' },
};
