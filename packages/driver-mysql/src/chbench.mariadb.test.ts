import { chbenchContract, chbenchSqlOf, type ChbenchRow } from '@sledge/driver-testkit';
import { placeholderSyntax, sqlSet } from '@sledge/sql';
import { loadMysql2 } from './engine/connect.js';
import { mariadbDriver } from './index.js';
import { mariadbTarget } from './testing/live.js';

// CH-benCHmark's tables and 22 queries (packages/sql/mysql/chbench/, read through MariaDB's fallback)
// on a TPROC-C schema the driver builds on this machine's MariaDB.
const target = mariadbTarget('sledge_mytest_chbench');
const { fill } = placeholderSyntax(/\{\{([a-z_]+)\}\}/g, (n) => `{{${n}}}`);

chbenchContract({
  name: 'mariadb',
  driver: mariadbDriver,
  target,
  sql: chbenchSqlOf(sqlSet('mariadb', 'chbench', { fill }), { storage_engine: target.storageEngine }),
  connect: async () => {
    const mysql = await loadMysql2();
    const c = await mysql.createConnection({ host: target.host, port: target.port, user: target.user, password: target.password, database: target.database, dateStrings: true });
    return {
      exec: async (sql) => void (await c.query(sql)),
      query: async (sql) => (await c.query(sql))[0] as ChbenchRow[],
      close: async () => await c.end(),
    };
  },
});
