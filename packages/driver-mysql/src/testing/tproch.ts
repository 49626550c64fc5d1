import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { expect } from 'vitest';
import { MARIADB_URL, parseMysqlUrl } from './live.js';

/**
 * Test-only: what the TPROC-H contract files share on this machine's MariaDB
 * (SLEDGE_MARIADB_URL, default mysql://root@127.0.0.1:3306).
 */
const p = parseMysqlUrl(MARIADB_URL);
export const TPROCH_CONN = { host: p.host, port: p.port, user: p.user, password: p.password };

/**
 * keys.sql adds the foreign keys with foreign_key_checks off (in place, no
 * copy of the child tables): they must all be there afterwards and enforced
 * for every other session.
 */
export async function foreignKeysEnforced(database: string): Promise<void> {
  const c = await createConnection({ ...TPROCH_CONN, database });
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
export const SLOW_QUERY = 'SELECT COUNT(*) FROM lineitem a, lineitem b, lineitem c WHERE a.l_comment <> c.l_comment OR b.l_tax > a.l_tax';
