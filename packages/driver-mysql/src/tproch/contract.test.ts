import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tprochHooks, type TprochAdmin } from '@sledge/core';
import { validate, MariadbTarget } from '@sledge/protocol';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { mariadbDriver } from '../index.js';
import { foreignKeysEnforced, SLOW_QUERY, TPROCH_CONN as conn } from '../testing/tproch.js';

// Live: this machine's MariaDB (SLEDGE_MARIADB_URL, default mysql://root@127.0.0.1:3306), database tpch_sl, dropped at the end.
// (The mysql flavour on the same MariaDB is contract.mysql.test.ts, database tpch_sl_my.)

tprochContract({
  name: 'mariadb',
  driver: mariadbDriver,
  target: validate(MariadbTarget, { engine: 'mariadb', ...conn, database: 'tpch_sl' }),
  queries: sqlSet('mariadb', 'tproch').statements('queries.sql'),
  slowQuery: SLOW_QUERY,
  afterBuild: (t) => foreignKeysEnforced(t.database),
});

describe('MariaDB TPROC-H stream session', () => {
  const target = validate(MariadbTarget, { engine: 'mariadb', ...conn, database: 'tpch_sl' });
  const hooks = tprochHooks(mariadbDriver);
  let admin: TprochAdmin;

  beforeAll(async () => {
    admin = await hooks.openAdmin(target, () => undefined);
    await admin.dropSchema();
    await admin.createSchema({ scaleFactor: 0.01, buildVus: 1 });
  });

  afterAll(async () => {
    await admin.dropSchema();
    await admin.close();
  });

  it("sets max_statement_time and names the session by its sledge_role attribute", async () => {
    const s = await hooks.openStream(target, { stream: 4, dop: 3, queryTimeoutSec: 7, log: () => undefined });
    try {
      const sql =
        "SELECT @@SESSION.max_statement_time, (SELECT attr_value FROM performance_schema.session_connect_attrs WHERE processlist_id = CONNECTION_ID() AND attr_name = 'sledge_role')";
      const r = await s.query({ query: 0, statements: [{ sql, timed: true }] }, { fetch: true });
      expect(Number(r.data![0]![0])).toBe(7);
      const role = r.data![0]![1];
      // performance_schema may be off on the server: then the attribute cannot be read back.
      if (role !== null) expect(role).toBe('sledge-tproch-4');
    } finally {
      await s.close();
    }
  });
});
