import { describe, expect, it } from 'vitest';
import type { TproccUnit } from './generate.js';
import { BUILD_SCHEDULES, allWarehouseSet, buildPlan, expectedRows, keySessions, keyStatementTable, orderLinePartitions, splitWarehouses, warehouseUnits } from './plan.js';
import { Mix } from './mix.js';
import { TproccVuInputs, thinkSeconds } from './inputs.js';
import { Rng } from '../random.js';
import { DEFAULT_MIX, TX_TYPES } from '@sledge/protocol';
import { checkSampleWarehouses, evaluateCheck, type CheckFacts } from './check.js';
import { perMinute, resultLine, tcountValue } from './result.js';
import { namedParts, parseNamedSql, splitSqlScript } from '../sqlfile.js';

describe('build split (findchunk)', () => {
  it('splits like HammerDB and always ends at W', () => {
    const r = (W: number, n: number) => splitWarehouses(W, n).map((x) => [x.start, x.end]);
    expect(r(10, 4)).toEqual([[1, 2], [3, 4], [5, 6], [7, 10]]);
    expect(r(11, 4)).toEqual([[1, 3], [4, 6], [7, 9], [10, 11]]);
    expect(r(10, 3)).toEqual([[1, 3], [4, 6], [7, 10]]);
    expect(r(1, 1)).toEqual([[1, 1]]);
    for (let W = 1; W <= 40; W++)
      for (let n = 1; n <= W; n++) {
        const s = splitWarehouses(W, n);
        expect(s.length).toBe(n);
        expect(s[0]!.start).toBe(1);
        expect(s[s.length - 1]!.end).toBe(W);
        for (let i = 1; i < s.length; i++) expect(s[i]!.start).toBe(s[i - 1]!.end + 1);
      }
  });
  it('build schedules: every unit once, same workers, lanes by table in warehouse order', () => {
    const key = (u: object) => JSON.stringify(u);
    for (const schedule of BUILD_SCHEDULES)
      for (const [W, n] of [[1, 1], [2, 2], [3, 2], [16, 2], [10, 3], [11, 4], [5, 5]] as const) {
        const plan = buildPlan(W, n, schedule);
        expect(plan.shares.map((s) => s.worker)).toEqual(splitWarehouses(W, n).map((r) => r.worker));
        const all = plan.queues.flatMap((q) => q.map(key)).sort();
        const want: string[] = [];
        for (let w = 1; w <= W; w++) want.push(...warehouseUnits(w).map(key));
        expect(all).toEqual(want.sort());
        for (const s of plan.shares) expect(s.queue).toBeLessThan(plan.queues.length);
        if (!plan.steal) for (const s of plan.shares) for (const u of plan.queues[s.queue]!) expect('w' in u && u.w >= s.start && u.w <= s.end).toBe(true);
      }
    const p = buildPlan(16, 2, 'lanes');
    expect(p.steal).toBe(true);
    expect(p.shares.map((s) => [s.start, s.end, s.queue])).toEqual([[1, 16, 0], [1, 16, 1]]);
    expect(new Set(p.queues[0]!.map((u) => u.kind))).toEqual(new Set(['warehouse', 'stock', 'district']));
    expect(new Set(p.queues[1]!.map((u) => u.kind))).toEqual(new Set(['customer', 'orders']));
    const ws = (q: readonly TproccUnit[]) => q.map((u) => ('w' in u ? u.w : 0));
    for (const q of p.queues) expect(ws(q)).toEqual([...ws(q)].sort((x, y) => x - y));
    expect(p.shares.map((s) => s.lane)).toEqual(['WAREHOUSE, STOCK, DISTRICT', 'CUSTOMER, HISTORY, ORDERS, NEW_ORDER, ORDER_LINE']);
    const r = buildPlan(16, 2, 'rows');
    expect(r.steal).toBe(true);
    expect(new Set(r.queues[0]!.map((u) => u.kind))).toEqual(new Set(['warehouse', 'stock', 'district', 'customer']));
    expect(new Set(r.queues[1]!.map((u) => u.kind))).toEqual(new Set(['orders']));
    for (const q of r.queues) expect(ws(q)).toEqual([...ws(q)].sort((x, y) => x - y));
    expect(r.shares.map((s) => s.lane)).toEqual(['WAREHOUSE, STOCK, DISTRICT, CUSTOMER, HISTORY', 'ORDERS, NEW_ORDER, ORDER_LINE']);
  });
  it('allwarehouse sets and partitions', () => {
    expect(allWarehouseSet(2, 2, 4)).toEqual([1, 3]);
    expect(allWarehouseSet(3, 2, 4)).toEqual([2, 4]);
    expect(orderLinePartitions(199, true)).toBe(0);
    expect(orderLinePartitions(250, true)).toBe(2);
    expect(orderLinePartitions(250, false)).toBe(0);
  });
});

describe('mix and inputs', () => {
  it('draws the 10/10/1/1/1 mix within ±1% over 100k', () => {
    const m = new Mix(DEFAULT_MIX);
    const r = new Rng(77);
    const n = 100000;
    const c: Record<string, number> = {};
    for (let i = 0; i < n; i++) {
      const t = m.next(r);
      c[t] = (c[t] ?? 0) + 1;
    }
    const share = m.shares();
    for (const t of TX_TYPES) expect(Math.abs((c[t] ?? 0) / n - share[t])).toBeLessThan(0.01);
    expect(share.neworder).toBeCloseTo(10 / 23, 6);
  });

  it('keeps the home warehouse and produces valid inputs', () => {
    const vu = new TproccVuInputs(5, { warehouses: 4, position: 2, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX });
    let rollbacks = 0;
    let remote = 0;
    let byname = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const no = vu.input('neworder');
      expect(no.w_id).toBe(vu.homeW);
      expect(no.lines.length).toBe(no.ol_cnt);
      expect(no.ol_cnt).toBeGreaterThanOrEqual(5);
      expect(no.ol_cnt).toBeLessThanOrEqual(15);
      if (no.rollback) {
        rollbacks++;
        expect(no.lines[no.lines.length - 1]!.i_id).toBe(100001);
      }
      remote += no.lines.filter((l) => l.supply_w_id !== no.w_id).length;
      const p = vu.input('payment');
      if (p.byname) {
        byname++;
        expect(p.c_last).toMatch(/^[A-Z]+$/);
      }
      expect(p.amount).toBeGreaterThanOrEqual(1);
      expect(p.amount).toBeLessThanOrEqual(5000);
      if (p.c_w_id !== p.w_id) expect(p.c_w_id).toBeGreaterThanOrEqual(1);
    }
    expect(rollbacks / n).toBeGreaterThan(0.007);
    expect(rollbacks / n).toBeLessThan(0.013);
    expect(remote / (n * 10)).toBeGreaterThan(0.007);
    expect(remote / (n * 10)).toBeLessThan(0.013);
    expect(byname / n).toBeGreaterThan(0.58);
    expect(byname / n).toBeLessThan(0.62);
    const sl = vu.input('stocklevel');
    expect(sl.d_id).toBe(vu.stockD);
  });

  it('is reproducible per seed and VU', () => {
    const mk = () => new TproccVuInputs(9, { warehouses: 10, position: 3, activeVus: 4, allWarehouse: true, mix: DEFAULT_MIX });
    const a = mk();
    const b = mk();
    for (let i = 0; i < 100; i++) {
      const t = a.nextType();
      expect(b.nextType()).toBe(t);
      expect(b.input(t)).toEqual(a.input(t));
    }
    expect(a.warehouses).toEqual([2, 6, 10]);
  });

  it('thinking time has mean about T', () => {
    const r = new Rng(3);
    let s = 0;
    for (let i = 0; i < 50000; i++) s += thinkSeconds(r, 'neworder');
    expect(s / 50000).toBeGreaterThan(11);
    expect(s / 50000).toBeLessThan(13);
  });
});

describe('check, result, sql files', () => {
  const facts = (over: Partial<CheckFacts> = {}): CheckFacts => ({
    databaseExists: true,
    tables: Object.fromEntries(['item', 'warehouse', 'stock', 'district', 'customer', 'history', 'orders', 'new_order', 'order_line'].map((t) => [t, true])),
    maxWarehouse: 1,
    indexed: Object.fromEntries(['item', 'warehouse', 'stock', 'district', 'customer', 'orders', 'new_order', 'order_line'].map((t) => [t, true])),
    rowCounts: { item: 100000, warehouse: 1, stock: 100000, district: 10, customer: 30000, history: 30000, orders: 30000, new_order: 9000, order_line: 299000 },
    routines: { neword: true, payment: true, delivery: true, slev: true, ostat: true },
    warehouses: [{ w: 1, w_ytd: 300000, sum_d_ytd: 300000, districts: [{ d: 1, next_o_id: 3001, max_o_id: 3000, no_count: 900, no_min: 2101, no_max: 3000, sum_ol_cnt: 30010, ol_count: 30010 }] }],
    ...over,
  });
  it('passes a good schema and names each failure', () => {
    expect(evaluateCheck(facts(), 1).every((i) => i.ok)).toBe(true);
    const bad = evaluateCheck(facts({ warehouses: [{ w: 1, w_ytd: 300010, sum_d_ytd: 300000, districts: [{ d: 2, next_o_id: 3005, max_o_id: 3000, no_count: 5, no_min: 1, no_max: 9, sum_ol_cnt: 10, ol_count: 11 }] }] }), 1);
    expect(bad.filter((i) => !i.ok).map((i) => i.name.slice(0, 2))).toEqual(['C1', 'C2', 'C3', 'C4']);
    expect(evaluateCheck(facts({ maxWarehouse: 2 }), 1).find((i) => !i.ok)?.name).toContain('max(w_id)');
    expect(checkSampleWarehouses(100)).toEqual([1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });
  it('holds new_order to its loaded minimum on an undriven schema only', () => {
    const counts = facts().rowCounts;
    // Fresh build, rows missing: a load failure.
    const fresh = evaluateCheck(facts({ rowCounts: { ...counts, new_order: 8000 } }), 1);
    expect(fresh.find((i) => i.name === 'row counts')).toMatchObject({ ok: false, detail: 'new_order has 8000 rows, needs >= 8100' });
    // After runs (more orders than loaded): deliveries drained new_order below 0.9 x 9000W; still a valid schema.
    const driven = evaluateCheck(facts({ rowCounts: { ...counts, orders: 31200, new_order: 7400 } }), 1);
    expect(driven.every((i) => i.ok)).toBe(true);
    // Other tables keep their minimum after runs.
    expect(evaluateCheck(facts({ rowCounts: { ...counts, orders: 31200, stock: 99999 } }), 1).find((i) => !i.ok)?.name).toBe('row counts');
  });
  it('formats the result line and rates', () => {
    expect(resultLine(110177, 253159, 'postgresql')).toBe('TEST RESULT : System achieved 110177 NOPM from 253159 PostgreSQL TPM');
    expect(resultLine(1, 2, 'mssql')).toBe('TEST RESULT : System achieved 1 NOPM from 2 SQL Server TPM');
    expect(perMinute(1000, 60)).toBe(1000);
    expect(perMinute(1001, 120)).toBe(500);
    expect(tcountValue(undefined, 100, 10)).toBe(0);
    expect(tcountValue(100, 250, 10)).toBe(900);
    expect(tcountValue(100, 250, 7)).toBe(1200);
  });
  it('parses named and scripted SQL', () => {
    expect(parseNamedSql('-- name: a\nSELECT 1;\n\n-- name: b\nSELECT\n 2;')).toEqual({ a: 'SELECT 1', b: 'SELECT\n 2' });
    expect(() => parseNamedSql('-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;')).toThrow('SQL statement "a" is defined twice');
    expect(() => parseNamedSql('-- name: a\n;\n-- name: b\nSELECT 2;')).toThrow('SQL statement "a" is empty');
    expect(namedParts('doc\n# name: h\n\nx\n# name: f\ny\n', /^#\s*name:\s*([a-z]+)$/)).toEqual([
      { name: 'h', lines: ['', 'x'] },
      { name: 'f', lines: ['y', ''] },
    ]);
    expect(namedParts('no markers\nat all', /^--\s*name:\s*(\w+)$/)).toEqual([]);
    expect(splitSqlScript('CREATE TABLE a(x int);\nCREATE FUNCTION f() RETURNS int AS $$\nBEGIN\n RETURN 1;\nEND;\n$$ LANGUAGE plpgsql;\n-- c\n')).toHaveLength(2);
    expect(splitSqlScript('CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END\n-- split\nCREATE TABLE t(x int);')).toHaveLength(2);
  });
});

describe('keySessions', () => {
  const pgKeys = [
    'ALTER TABLE warehouse ADD CONSTRAINT warehouse_i1 PRIMARY KEY (w_id)',
    'ALTER TABLE district ADD CONSTRAINT district_i1 PRIMARY KEY (d_w_id, d_id)',
    'ALTER TABLE customer ADD CONSTRAINT customer_i1 PRIMARY KEY (c_w_id, c_d_id, c_id)',
    'CREATE UNIQUE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id)',
    'ALTER TABLE item ADD CONSTRAINT item_i1 PRIMARY KEY (i_id)',
    'ALTER TABLE stock ADD CONSTRAINT stock_i1 PRIMARY KEY (s_i_id, s_w_id)',
    'ALTER TABLE new_order ADD CONSTRAINT new_order_i1 PRIMARY KEY (no_w_id, no_d_id, no_o_id)',
    'ALTER TABLE orders ADD CONSTRAINT orders_i1 PRIMARY KEY (o_w_id, o_d_id, o_id)',
    'CREATE UNIQUE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id)',
    'ALTER TABLE order_line ADD CONSTRAINT order_line_i1 PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)',
  ];
  const myKeys = ['ALTER TABLE customer ADD INDEX customer_i2 (c_w_id, c_d_id, c_last, c_first)', 'ALTER TABLE orders ADD INDEX orders_i2 (o_w_id, o_d_id, o_c_id, o_id)'];
  const id = (s: string) => s;

  it('puts every table and every key in exactly one session, the work about even', () => {
    for (const W of [1, 16, 100]) {
      const two = keySessions(W, 2, pgKeys, id);
      expect(two).toHaveLength(2);
      expect(two.flatMap((s) => s.tables).sort()).toEqual(Object.keys(expectedRows(W)).sort());
      expect(two.flatMap((s) => s.keys).sort()).toEqual([...pgKeys].sort());
      // From 16 warehouses order_line (10 lines per order) is as much work as the other tables together: a session of its own.
      if (W >= 16) expect(two.find((s) => s.tables.includes('order_line'))!.keys).toEqual([pgKeys[9]]);
      // Each session keeps indexes.sql's order.
      for (const s of two) expect(s.keys).toEqual(pgKeys.filter((k) => s.keys.includes(k)));
    }
  });
  it('splits the two MariaDB/MySQL secondary keys over the two sessions', () => {
    const two = keySessions(16, 2, myKeys, id);
    expect(two.map((s) => s.keys)).toEqual([[myKeys[0]], [myKeys[1]]]);
    expect(two.flatMap((s) => s.tables)).toHaveLength(9);
  });
  it('keeps one session when asked for one, and never more than two', () => {
    expect(keySessions(16, 1, pgKeys, id)).toEqual([{ tables: expect.arrayContaining(['item', 'history']), keys: pgKeys }]);
    expect(keySessions(16, 8, pgKeys, id)).toHaveLength(2);
    expect(keySessions(16, 0, pgKeys, id)).toHaveLength(1);
    expect(keySessions(16, Number.NaN, pgKeys, id)).toEqual([{ tables: expect.any(Array), keys: pgKeys }]);
  });
  it('refuses a statement that names no TPROC-C table', () => {
    expect(() => keySessions(16, 2, [...myKeys, 'CREATE INDEX x ON nosuch (a)'], id)).toThrow(/no TPROC-C table named in: CREATE INDEX x ON nosuch/);
  });
});

describe('keyStatementTable', () => {
  it('names the table of ALTER TABLE and CREATE INDEX ... ON statements', () => {
    expect(keyStatementTable('ALTER TABLE warehouse  ADD CONSTRAINT warehouse_i1  PRIMARY KEY (w_id)')).toBe('warehouse');
    expect(keyStatementTable('CREATE UNIQUE INDEX customer_i2 ON customer (c_w_id, c_d_id, c_last, c_first, c_id)')).toBe('customer');
    expect(keyStatementTable('-- Order status\nALTER TABLE orders ADD INDEX orders_i2 (o_w_id, o_d_id, o_c_id, o_id)')).toBe('orders');
    expect(keyStatementTable('CREATE INDEX "ORDERS_I2" ON "ORDERS" (O_W_ID)')).toBe('orders');
    expect(keyStatementTable('SELECT 1')).toBeNull();
  });
});
