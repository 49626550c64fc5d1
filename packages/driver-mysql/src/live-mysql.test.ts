import { driverContract } from '@sledge/driver-testkit';
import { mysqlDriver } from './index.js';
import { mysqlTarget, parseMysqlUrl } from './testing/live.js';

// Real MySQL (8.x): set SLEDGE_MYSQL_URL=mysql://user:password@host:port[/database].
// The suite drops and rebuilds that database (default sledge_mytest_live: contract.mysql.test.ts has sledge_mytest_mysql).
const url = process.env.SLEDGE_MYSQL_URL;
const db = (url && parseMysqlUrl(url).database) || 'sledge_mytest_live';
const target = mysqlTarget(db, {}, url ?? 'mysql://root@127.0.0.1:3306');

driverContract({
  name: 'mysql (live MySQL server)',
  driver: mysqlDriver,
  target,
  skip: url ? false : 'SLEDGE_MYSQL_URL not set: no MySQL server to test against',
  unreachableTarget: { ...target, port: 1 },
});
