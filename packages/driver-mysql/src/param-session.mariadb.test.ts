import { paramSessionContract, pgbenchTablesSqlOf } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { mariadbDriver } from './index.js';
import { mariadbTarget, rootConnection } from './testing/live.js';

// The script workload's session on pgbench's tables (packages/sql/mysql/script/, MariaDB's fallback), in a database of its own.
const DB = 'script_workload_myparam';

async function admin(sql: string): Promise<void> {
  const c = await rootConnection();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

paramSessionContract({
  name: 'mariadb',
  driver: mariadbDriver,
  target: mariadbTarget(DB),
  sql: pgbenchTablesSqlOf(sqlSet('mariadb', 'script')),
  prepare: () => admin(`CREATE DATABASE IF NOT EXISTS ${DB}`),
  cleanup: () => admin(`DROP DATABASE IF EXISTS ${DB}`),
});
