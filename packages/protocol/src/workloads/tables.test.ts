import { describe, expect, it } from 'vitest';
import { heldWorkloadTables, schemaExistsMessage } from './index.js';

const TPROCC_FILE = ['customer', 'district', 'history', 'item', 'new_order', 'order_line', 'orders', 'stock', 'warehouse'];
const TPROCH_FILE = ['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier'];

describe('whose tables a target holds', () => {
  it('names a TPROC-C schema TPROC-C, though customer and orders are TPROC-H names too', () => {
    const h = heldWorkloadTables(TPROCC_FILE);
    expect(h.owners.map((o) => o.id)).toEqual(['tprocc']);
    expect(h.owners[0]!.tables).toContain('customer');
    expect(h.other).toEqual([]);
    expect(heldWorkloadTables(TPROCH_FILE).owners.map((o) => o.id)).toEqual(['tproch']);
  });

  it('both schemas in one file: both named; shared names alone name neither', () => {
    expect(heldWorkloadTables([...TPROCC_FILE, 'lineitem']).owners.map((o) => o.id)).toEqual(['tprocc', 'tproch']);
    const shared = heldWorkloadTables(['customer', 'orders', 'notes']);
    expect(shared.owners).toEqual([]);
    expect(shared.other).toEqual(['customer', 'orders', 'notes']);
  });
});

describe('the schema-exists message', () => {
  it('building TPROC-H on a TPROC-C file says TPROC-C tables and what to do', () => {
    const m = schemaExistsMessage('/d/tprocc.sqlite', 'tproch', 'sqlite', TPROCC_FILE, 'target.file');
    expect(m).toContain('already holds TPROC-C tables (item, warehouse, stock, district, customer, history, orders, new_order, order_line), not TPROC-H');
    expect(m).toContain('choose another target.file for TPROC-H (its default is tproch.sqlite)');
    expect(m).toContain('delete the TPROC-C schema first');
    expect(m).not.toMatch(/holds TPROC-H tables/);
  });

  it('building TPROC-C on a TPROC-H file says TPROC-H tables', () => {
    const m = schemaExistsMessage('/d/x.sqlite', 'tprocc', 'sqlite', TPROCH_FILE, 'target.file');
    expect(m).toMatch(/^\/d\/x\.sqlite already holds TPROC-H tables \(region, nation, supplier, customer, part, partsupp, orders, lineitem\), not TPROC-C/);
    expect(m).toContain('delete the TPROC-H schema first');
  });

  it("the workload's own tables (a build that died early): delete the schema or another file", () => {
    expect(schemaExistsMessage('/d/h.sqlite', 'tproch', 'sqlite', ['region', 'nation'], 'target.file')).toBe(
      "/d/h.sqlite already holds TPROC-H tables (region, nation): delete the TPROC-H schema first or choose another target.file (TPROC-H's default is tproch.sqlite).",
    );
    expect(schemaExistsMessage('/d/c.sqlite', 'tprocc', 'sqlite', ['district', 'item'], 'target.file')).toBe(
      '/d/c.sqlite already holds TPROC-C tables (item, district): delete the TPROC-C schema first or choose another target.file.',
    );
  });

  it('only shared names (customer, orders): says so without naming a workload', () => {
    expect(schemaExistsMessage('/d/s.sqlite', 'tproch', 'sqlite', ['customer', 'orders'], 'target.file')).toBe(
      "/d/s.sqlite already holds tables named like TPROC-H's (customer, orders): choose another target.file (TPROC-H's default is tproch.sqlite) or drop those tables first.",
    );
  });
});

describe('whose tables: a workload that extends another (CH-benCHmark holds TPROC-C\'s nine tables)', () => {
  const CHBENCH_FILE = [...TPROCC_FILE, 'region', 'nation', 'supplier'];
  it('twelve tables are a CH-benCHmark schema, not TPROC-C plus TPROC-H', () => {
    const h = heldWorkloadTables(CHBENCH_FILE);
    expect(h.owners.map((o) => o.id)).toEqual(['chbench']);
    expect(h.other).toEqual([]);
  });
  it('nine TPROC-C tables stay TPROC-C; a TPROC-C build that stopped early is still named TPROC-C', () => {
    expect(heldWorkloadTables(TPROCC_FILE).owners.map((o) => o.id)).toEqual(['tprocc']);
    expect(heldWorkloadTables(['district', 'item']).owners.map((o) => o.id)).toEqual(['tprocc']);
  });
  it('building CH-benCHmark over a TPROC-C schema names the TPROC-C tables', () => {
    const m = schemaExistsMessage('/d/c.sqlite', 'chbench', 'sqlite', TPROCC_FILE, 'target.file');
    expect(m).toMatch(/already holds TPROC-C tables \(.*\), not CH-benCHmark/);
  });
});
