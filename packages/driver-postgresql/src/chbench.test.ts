import pg from 'pg';
import { chbenchContract, chbenchSqlOf, type ChbenchRow } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import type { PgTproccTarget } from './tprocc/target.js';
import { driver } from './index.js';
import { contractTarget } from './testing/contract.js';

// CH-benCHmark's tables and 22 queries (packages/sql/postgresql/chbench/) on a TPROC-C schema the driver builds.
const target: PgTproccTarget = contractTarget('sledge_pgtest_chbench', 'sledge_pgtest_ch');

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
