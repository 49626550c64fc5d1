import Database from 'better-sqlite3';
import { chbenchContract, chbenchSqlOf, type ChbenchRow } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { driver } from './index.js';
import { tempTarget } from './test-support/build.js';

// CH-benCHmark's tables and 22 queries (packages/sql/sqlite/chbench/) on a TPROC-C schema the driver builds.
const target = tempTarget('chbench');

chbenchContract({
  name: 'sqlite',
  driver,
  target,
  sql: chbenchSqlOf(sqlSet('sqlite', 'chbench')),
  connect: async () => {
    const db = new Database(target.file);
    db.pragma(`busy_timeout = ${target.busyTimeoutMs}`);
    return {
      exec: async (sql) => void db.exec(sql),
      query: async (sql) => db.prepare(sql).all() as ChbenchRow[],
      close: async () => void db.close(),
    };
  },
});
