import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS } from './columns.js';
import { TproccGenerator, type GeneratedTable } from './generate.js';
import { expectedRows, itemUnits, splitWarehouses, warehouseUnits } from './plan.js';
import type { Value } from '../bulk/encode.js';

const ctx = { seed: 12345, timestamp: '2026-11-22 00:00:00' };

function gen(format: 'pg-text' | 'csv' | 'tuples', units = warehouseUnits(1), seed = ctx.seed) {
  const g = new TproccGenerator({ ...ctx, seed }, format);
  const out: GeneratedTable[] = [];
  for (const u of units) out.push(...g.generate(u));
  return out;
}
/**
 * gen(), yielding to the event loop between units: a long synchronous stretch
 * starves the vitest worker's RPC (its 60 s "Timeout calling onTaskUpdate" on a
 * loaded machine).
 */
async function genYielding(format: 'pg-text' | 'csv' | 'tuples', units = warehouseUnits(1), seed = ctx.seed) {
  const g = new TproccGenerator({ ...ctx, seed }, format);
  const out: GeneratedTable[] = [];
  for (const u of units) {
    out.push(...g.generate(u));
    await new Promise((r) => setImmediate(r));
  }
  return out;
}
const rowsOf = (ts: GeneratedTable[], t: string) => ts.filter((x) => x.table === t).reduce((s, x) => s + x.rows, 0);

describe('TPROC-C row generation', () => {
  // Warehouse 1 as tuples, for these two tests only: hundreds of MB of row
  // arrays that, kept alive for the whole file, made every later garbage collection slow.
  describe('warehouse 1 as tuples', () => {
    let w1: GeneratedTable[] = [];
    beforeAll(() => {
      w1 = gen('tuples');
    });
    afterAll(() => {
      w1 = [];
    });

    it('generates exactly the specified rows per warehouse', () => {
      expect(rowsOf(w1, 'warehouse')).toBe(1);
      expect(rowsOf(w1, 'district')).toBe(10);
      expect(rowsOf(w1, 'stock')).toBe(100000);
      expect(rowsOf(w1, 'customer')).toBe(30000);
      expect(rowsOf(w1, 'history')).toBe(30000);
      expect(rowsOf(w1, 'orders')).toBe(30000);
      expect(rowsOf(w1, 'new_order')).toBe(9000);
      const ol = rowsOf(w1, 'order_line');
      expect(ol).toBeGreaterThan(300000 * 0.99);
      expect(ol).toBeLessThan(300000 * 1.01);
      expect(rowsOf(gen('tuples', itemUnits()), 'item')).toBe(100000);
      expect(expectedRows(4).stock).toBe(400000);
    });

    it('rows have the declared column count and the data rules', () => {
      const tuples = (t: string) => w1.filter((x) => x.table === t).flatMap((x) => x.data as Value[][]);
      for (const t of ['warehouse', 'district', 'stock', 'customer', 'history', 'orders', 'new_order', 'order_line'] as const) {
        for (const row of tuples(t).slice(0, 50)) expect(row.length).toBe(TPROCC_COLUMNS[t].length);
      }
      const cust = tuples('customer');
      const bc = cust.filter((r) => r[13] === 'BC').length / cust.length;
      expect(bc).toBeGreaterThan(0.48);
      expect(bc).toBeLessThan(0.52);
      for (const r of cust.slice(0, 1000)) expect(r[5]).toMatch(/^(BAR|OUGHT|ABLE|PRI|PRES|ESE|ANTI|CALLY|ATION|EING){3}$/);
      expect(cust[0]![5]).toBe('BARBARBAR');
      const stock = tuples('stock');
      const orig = stock.filter((r) => String(r[13]).includes('original')).length / stock.length;
      expect(orig).toBeGreaterThan(0.09);
      expect(orig).toBeLessThan(0.1);
      const orders = tuples('orders');
      // o_c_id is a permutation of 1..3000 within each district
      const d1 = orders.filter((r) => r[1] === 1).map((r) => r[3] as number).sort((a, b) => a - b);
      expect(d1).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
      // carrier set exactly for o_id < 2101
      expect(orders.every((r) => ((r[0] as number) < 2101) === (r[5] !== null))).toBe(true);
      // C4: sum(o_ol_cnt) = count(order_line)
      const sumOl = orders.reduce((s, r) => s + (r[6] as number), 0);
      expect(sumOl).toBe(rowsOf(w1, 'order_line'));
      const dist = tuples('district');
      expect(dist.every((r) => r[10] === 3001)).toBe(true);
      // new_order holds o_id 2101..3000 per district
      const no = tuples('new_order').filter((r) => r[1] === 1).map((r) => r[0] as number);
      expect(Math.min(...no)).toBe(2101);
      expect(Math.max(...no)).toBe(3000);
    });
  });

  it('is reproducible for a seed and independent of the worker split', async () => {
    const some = (w: number) => warehouseUnits(w).filter((u) => u.kind !== 'stock' || u.from === 1);
    const a = await genYielding('pg-text', some(3));
    const b = await genYielding('pg-text', some(3));
    expect(a.map((x) => x.data)).toEqual(b.map((x) => x.data));
    // Another seed: its first unit is enough to differ (the rest of warehouse 3 is not compared).
    const c = await genYielding('pg-text', some(3).slice(0, 1), 999);
    expect(c[0]!.data).not.toEqual(a[0]!.data);
    // Warehouse 3 generated alone (a) equals warehouse 3 generated after 1 and 2.
    const seq = await genYielding('pg-text', [...some(1), ...some(2), ...some(3)]);
    expect(seq.slice(-a.length).map((x) => x.data)).toEqual(a.map((x) => x.data));
    expect(splitWarehouses(4, 2)).toEqual([
      { worker: 2, start: 1, end: 2 },
      { worker: 3, start: 3, end: 4 },
    ]);
  });

  it('text formats contain no delimiter inside values', () => {
    for (const t of gen('pg-text', warehouseUnits(1).filter((u) => u.kind !== 'stock' || u.from === 1))) {
      const text = t.data as string;
      const cols = TPROCC_COLUMNS[t.table].length;
      for (const line of text.slice(0, 200000).split('\n').slice(0, -1)) expect(line.split('\t').length).toBe(cols);
    }
    for (const t of gen('csv', [{ kind: 'customer', w: 1, d: 1 }])) {
      for (const line of (t.data as string).split('\n').slice(0, -1)) expect(line.split(',').length).toBe(TPROCC_COLUMNS[t.table].length);
    }
  });
});
