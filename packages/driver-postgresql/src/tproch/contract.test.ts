import type { PostgresqlTarget } from '@sledge/protocol';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';

/** Live: PostgreSQL at SLEDGE_PG_HOST:SLEDGE_PG_PORT (127.0.0.1:5432); database and role tpch_sl, dropped at the end. */
const target: PostgresqlTarget = {
  engine: 'postgresql',
  host: process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1',
  port: Number(process.env['SLEDGE_PG_PORT'] ?? 5432),
  user: 'tpch_sl',
  password: 'tpch_sl',
  database: 'tpch_sl',
  superuser: 'postgres',
  superuserPassword: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  defaultDatabase: 'postgres',
  sslmode: 'prefer',
  vacuum: false,
};

tprochContract({
  name: 'postgresql',
  driver,
  target,
  queries: sqlSet('postgresql', 'tproch').statements('queries.sql'),
  slowQuery: 'SELECT pg_sleep(30)',
});
