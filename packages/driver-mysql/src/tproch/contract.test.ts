import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tprochHooks, type TprochAdmin } from '@sledge/core';
import { validate, MariadbTarget, MysqlTarget } from '@sledge/protocol';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { mariadbDriver, mysqlDriver } from '../index.js';
import { MARIADB_URL, parseMysqlUrl } from '../testing/live.js';

// Live: this machine's MariaDB (SLEDGE_MARIADB_URL, default mysql://root@127.0.0.1:3306), database tpch_sl[_my], dropped at the end.
const p = parseMysqlUrl(MARIADB_URL);
const conn = { host: p.host, port: p.port, user: p.user, password: p.password };

/**
 * keys.sql adds the foreign keys with foreign_key_checks off (in place, no
 * copy of the child tables): they must all be there afterwards and enforced
 * for every other session.
 */
async function foreignKeysEnforced(database: string): Promise<void> {
  const c = await createConnection({ ...conn, database });
  try {
    const [fks] = await c.query<RowDataPacket[]>('SELECT constraint_name AS n FROM information_schema.referential_constraints WHERE constraint_schema = ? ORDER BY 1', [database]);
    expect(fks.map((r) => String(r.n))).toEqual([
      'customer_nation_fk',
      'lineitem_order_fk',
      'lineitem_partsupp_fk',
      'nation_region_fk',
      'orders_customer_fk',
      'partsupp_part_fk',
      'partsupp_supplier_fk',
      'supplier_nation_fk',
    ]);
    const [[checks]] = await c.query<RowDataPacket[]>('SELECT @@SESSION.foreign_key_checks AS v');
    expect(Number(checks!.v)).toBe(1);
    // An order for a customer that does not exist is refused (ER_NO_REFERENCED_ROW_2).
    await expect(
      c.query("INSERT INTO orders VALUES (999999999, 999999999, 'O', 1.00, '1998-01-01', '1-URGENT', 'Clerk#000000001', 0, 'x')"),
    ).rejects.toMatchObject({ errno: 1452 });
  } finally {
    await c.end();
  }
}

/** A cross join of the fixture's lineitems with itself three times: minutes of work for the server. */
const SLOW = 'SELECT COUNT(*) FROM lineitem a, lineitem b, lineitem c WHERE a.l_comment <> c.l_comment OR b.l_tax > a.l_tax';

tprochContract({
  name: 'mariadb',
  driver: mariadbDriver,
  target: validate(MariadbTarget, { engine: 'mariadb', ...conn, database: 'tpch_sl' }),
  queries: sqlSet('mariadb', 'tproch').statements('queries.sql'),
  slowQuery: SLOW,
  afterBuild: (t) => foreignKeysEnforced(t.database),
});

// Engine 'mysql' on the same MariaDB: MySQL's files and statements run there too,
// except max_execution_time (MySQL's timeout variable), which MariaDB does not have.
tprochContract({
  name: 'mysql flavour on MariaDB',
  driver: mysqlDriver,
  target: validate(MysqlTarget, { engine: 'mysql', ...conn, database: 'tpch_sl_my' }),
  queries: sqlSet('mysql', 'tproch').statements('queries.sql'),
  slowQuery: SLOW,
  skipTimeout: 'MariaDB has no max_execution_time (MySQL 8 only)',
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
