import pg from 'pg';
import { chbenchContract, chbenchSqlOf, type ChbenchRow } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import type { PgTproccTarget } from './tprocc/target.js';
import { driver } from './index.js';

// CH-benCHmark's tables and 22 queries (packages/sql/postgresql/chbench/) on a TPROC-C schema the driver builds.
const target: PgTproccTarget = {
  engine: 'postgresql',
  host: process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1',
  port: Number(process.env['SLEDGE_PG_PORT'] ?? 5432),
  user: 'sledge_pgtest_ch',
  password: 'pw',
  database: 'sledge_pgtest_chbench',
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

chbenchContract({
  name: 'postgresql',
  driver,
  target,
  sql: chbenchSqlOf(sqlSet('postgresql', 'chbench')),
  connect: async () => {
    const client = new pg.Client({ host: target.host, port: target.port, user: target.user, password: target.password, database: target.database });
    await client.connect();
    return {
      exec: async (sql) => void (await client.query(sql)),
      query: async (sql) => (await client.query(sql)).rows as ChbenchRow[],
      close: async () => await client.end(),
    };
  },
});
