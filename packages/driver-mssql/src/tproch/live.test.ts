import { describe, expect, it } from 'vitest';
import { TPROCH_QUERY_PARAMS, fillQuery, parseNamedSql, type TprochQueryText, type Value } from '@sledge/core';
import { TPROCH_TABLES, type MssqlTarget, type TprochTable } from '@sledge/protocol';
import { sqlText } from '@sledge/sql';
import { parseMssqlUrl } from '../engine/url.js';
import { tprochHooks } from './hooks.js';

/**
 * TPROC-H against a live SQL Server, run only when SLEDGE_MSSQL_URL names
 * one (e.g. mssql://sa:Passw0rd!@localhost:1433/?encrypt=true&trustServerCertificate=true).
 * It DROPS and recreates the database sledge_tproch_offline.
 */
const url = process.env['SLEDGE_MSSQL_URL'];
const target: MssqlTarget | undefined = url ? { ...parseMssqlUrl(url), database: 'sledge_tproch_offline' } : undefined;

const VALUES: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'FRANCE', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '0', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '15',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

/** A handful of consistent rows per table (TPROCH_COLUMNS order). */
const DATA: Record<TprochTable, Value[][]> = {
  region: [[3, 'EUROPE', 'ly final courts']],
  nation: [[6, 'FRANCE', 3, 'refully final requests']],
  supplier: [[1, 'Supplier#000000001', 'N kD4on9OM Ipw3,gf0J', 6, '27-918-335-1736', '5755.94', 'each slyly above the careful']],
  customer: [[1, 'Customer#000000001', 'IVhzIApeRb ot,c,E', 6, '13-989-741-2988', '711.56', 'BUILDING', 'to the even, regular platelets']],
  part: [[1, 'goldenrod lavender spring chocolate green', 'Manufacturer#1', 'Brand#45', 'PROMO BURNISHED BRASS', 15, 'MED BOX', '901.00', 'ly. slyly ironi']],
  partsupp: [[1, 1, 3325, '771.64', 'requests after the carefully ironic ideas cajole alongside of the enticingly special accounts']],
  orders: [[1, 1, 'F', '1000.00', '1995-03-01', '1-URGENT', 'Clerk#000000951', 0, 'special packages haggle']],
  lineitem: [[1, 1, 1, 1, '17', '15317.00', '0.05', '0.02', 'R', 'F', '1995-03-20', '1995-03-10', '1995-03-25', 'DELIVER IN PERSON', 'MAIL', 'egular courts above the']],
};

const queries = parseNamedSql(sqlText('mssql', 'tproch', 'queries.sql'));
const text = (q: number): TprochQueryText => ({
  query: q,
  statements: (q === 15 ? ['q15_view', 'q15', 'q15_drop'] : [`q${q}`]).map((n) => ({ sql: fillQuery(queries[n]!, VALUES), timed: n === `q${q}` })),
});

describe.skipIf(!target)('SQL Server TPROC-H (live, SLEDGE_MSSQL_URL)', () => {
  it('builds, loads, queries, explains, refreshes and drops', async () => {
    const t = target!;
    const log = () => undefined;
    const admin = await tprochHooks.openAdmin(t, log);
    try {
      await admin.dropSchema();
      expect(await admin.schemaState()).toEqual({ exists: false, scaleFactor: 0 });
      await admin.createSchema({ scaleFactor: 0.0001, buildVus: 1 });
      const loader = await tprochHooks.openLoader(t, log);
      await loader.load(TPROCH_TABLES.map((table) => ({ table, rows: DATA[table].length, data: DATA[table] })));
      await loader.close();
      await admin.finishSchema({ scaleFactor: 0.0001, buildVus: 1 });
      expect(await admin.rowCounts()).toEqual(Object.fromEntries(TPROCH_TABLES.map((tb) => [tb, 1])));
      expect(await admin.schemaState()).toEqual({ exists: true, scaleFactor: 0.0001 });
      await expect(admin.assertBuildable!()).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS' });
      const s = await tprochHooks.openStream(t, { stream: 0, dop: 2, queryTimeoutSec: 60, log });
      try {
        for (let q = 1; q <= 22; q++) {
          expect(TPROCH_QUERY_PARAMS[q]).toBeDefined();
          const r = await s.query(text(q));
          expect(r.rows, `q${q}`).toBeGreaterThanOrEqual(0);
        }
        expect((await s.query(text(6))).rows).toBe(1);
        expect(await s.explain(text(1))).toMatch(/Scan|Seek/);
        expect(await s.explain(text(15))).toMatch(/revenue0|Scan/);
        await s.newSales([{ order: [2, 1, 'O', '10.00', '1996-01-02', '5-LOW', 'Clerk#000000001', 0, 'new'], lineitems: [[2, 1, 1, 1, '1', '901.00', '0.00', '0.00', 'N', 'O', '1996-02-01', '1996-02-10', '1996-02-15', 'NONE', 'AIR', 'x']] }], {
          trickleMs: 0,
          commitEvery: 1000,
          stopped: () => false,
        });
        expect((await admin.rowCounts()).orders).toBe(2);
        await s.oldSales([2], { trickleMs: 0, commitEvery: 1000, stopped: () => false });
        expect((await admin.rowCounts()).lineitem).toBe(1);
      } finally {
        await s.close();
      }
      await admin.dropSchema();
      expect((await admin.schemaState()).exists).toBe(false);
    } finally {
      await admin.close();
    }
  });
});
