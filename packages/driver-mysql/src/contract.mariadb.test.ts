import { beforeAll } from 'vitest';
import { driverContract } from '@sledge/driver-testkit';
import { mariadbDriver } from './index.js';
import { AUTH_USER, ensureAuthTestUser } from './testing/auth.js';
import { mariadbTarget } from './testing/live.js';

// Engine 'mariadb' on this machine's MariaDB: stored procedures called as text (and as server-side
// prepared CALLs, a VU variant), LOAD DATA LOCAL loads.
beforeAll(ensureAuthTestUser);

const target = mariadbTarget('sledge_mytest_maria');

driverContract({
  // No quiet section: the mixed-workload test asserts that the engine TPM counter grows, and
  // MariaDB's (Com_commit + Com_rollback, SHOW GLOBAL STATUS) only grows, whatever else runs.
  name: 'mariadb',
  driver: mariadbDriver,
  target,
  badAuthTarget: { ...target, user: AUTH_USER, password: 'wrong-password-for-test' },
  unreachableTarget: { ...target, port: 1 },
  // Server-side prepared CALLs (mysql2 execute) on the same schema: the VU tests again, no second build.
  vuVariants: [{ name: 'prepared CALL', target: mariadbTarget('sledge_mytest_maria', { prepared: true }) }],
});
