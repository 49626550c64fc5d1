import { validate, MysqlTarget } from '@sledge/protocol';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { mysqlDriver } from '../index.js';
import { foreignKeysEnforced, SLOW_QUERY, TPROCH_CONN } from '../testing/tproch.js';

// Live: this machine's MariaDB (SLEDGE_MARIADB_URL, default mysql://root@127.0.0.1:3306), database tpch_sl_my, dropped at the end.
// Engine 'mysql' on the same MariaDB: MySQL's files and statements run there too,
// except max_execution_time (MySQL's timeout variable), which MariaDB does not have.
// (Engine 'mariadb' is contract.test.ts: a file of its own, so the live tier's two workers build both at once.)
tprochContract({
  name: 'mysql flavour on MariaDB',
  driver: mysqlDriver,
  target: validate(MysqlTarget, { engine: 'mysql', ...TPROCH_CONN, database: 'tpch_sl_my' }),
  queries: sqlSet('mysql', 'tproch').statements('queries.sql'),
  slowQuery: SLOW_QUERY,
  skipTimeout: 'MariaDB has no max_execution_time (MySQL 8 only)',
  afterBuild: (t) => foreignKeysEnforced(t.database),
});
