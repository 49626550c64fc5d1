import { beforeAll } from 'vitest';
import { driverContract } from '@sledge/driver-testkit';
import { mysqlDriver } from './index.js';
import { AUTH_USER, ensureAuthTestUser } from './testing/auth.js';
import { mysqlTarget } from './testing/live.js';

// Engine 'mysql' pointed at this machine's MariaDB: proves the MySQL flavour's
// SQL (packages/sql/mysql/tprocc only, no MariaDB overrides) runs. Real MySQL 8 is
// exercised by live-mysql.test.ts when SLEDGE_MYSQL_URL is set.
beforeAll(ensureAuthTestUser);

const target = mysqlTarget('sledge_mytest_mysql');

driverContract({
  // No quiet section: the mixed-workload test asserts that the engine TPM counter grows, and
  // MariaDB's (Com_commit + Com_rollback, SHOW GLOBAL STATUS) only grows, whatever else runs.
  name: 'mysql flavour on MariaDB',
  driver: mysqlDriver,
  target,
  badAuthTarget: { ...target, user: AUTH_USER, password: 'wrong-password-for-test' },
  unreachableTarget: { ...target, port: 1 },
});
