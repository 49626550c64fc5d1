import pg from 'pg';
import { paramSessionContract, pgbenchTablesSqlOf } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import type { PgTproccTarget } from './tprocc/target.js';
import { driver } from './index.js';

// The script workload's session on pgbench's tables (packages/sql/postgresql/script/), in a database of its own.
const DB = 'script_workload_pgparam';
const target: PgTproccTarget = {
  engine: 'postgresql',
  host: process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1',
  port: Number(process.env['SLEDGE_PG_PORT'] ?? 5432),
  user: 'postgres',
  password: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  database: DB,
  superuser: 'postgres',
  superuserPassword: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  defaultDatabase: 'postgres',
  sslmode: 'prefer',
  tablespace: 'pg_default',
  storedProcs: false,
  partition: false,
  vacuum: false,
  prepared: true, noStoredProcs: false,
};

async function admin(fn: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const c = new pg.Client({ host: target.host, port: target.port, user: target.superuser, password: target.superuserPassword, database: 'postgres' });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

paramSessionContract({
  name: 'postgresql',
  driver,
  target,
  sql: pgbenchTablesSqlOf(sqlSet('postgresql', 'script')),
  prepare: () => admin(async (c) => {
    if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount === 0) await c.query(`CREATE DATABASE ${DB}`);
  }),
  cleanup: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)),
});
