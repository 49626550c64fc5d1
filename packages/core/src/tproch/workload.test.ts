import { describe, expect, it } from 'vitest';
import { TPROCH_QUERY_PARAMS } from './query-params.js';
import { TPROCH_STREAM_ORDERS, streamOrder, streamOrderRow } from './permutations.js';
import { TPROCH_VALIDATION_PARAMS, qgenMonthStart, q11Fraction, tprochQueryParams, tprochQueryText } from './params.js';
import { clampIntervals, geomeanLine, geomeanReturningRows, powerAtSize, qphh, throughputAtSize } from './metrics.js';
import { TPROCH_MULTIPLIERS, tprochBuildPlan, tprochExpectedRows } from './plan.js';
import { evaluateTprochCheck } from './check.js';
import { TPROCH_DISTS } from './dists.js';

describe('Appendix A stream orders', () => {
  it('has rows 0..40, each a permutation of the 22 queries; row 0 is the power stream', () => {
    expect(TPROCH_STREAM_ORDERS).toHaveLength(41);
    const all = Array.from({ length: 22 }, (_, i) => i + 1);
    for (const row of TPROCH_STREAM_ORDERS) expect([...row].sort((a, b) => a - b)).toEqual(all);
    expect(streamOrder(0)).toEqual([14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19, 5, 7, 12]);
    expect(streamOrder(1)).toEqual([21, 3, 18, 5, 11, 7, 6, 20, 17, 12, 16, 15, 13, 10, 2, 8, 14, 19, 9, 22, 1, 4]);
    expect(streamOrder(40)).toEqual([13, 15, 17, 1, 22, 11, 3, 4, 7, 20, 14, 21, 9, 8, 2, 18, 16, 6, 10, 12, 5, 19]);
  });
  it('wraps positions above 40 as pos mod 40', () => {
    expect(streamOrderRow(41)).toBe(1);
    expect(streamOrderRow(80)).toBe(0);
    expect(streamOrder(45)).toEqual(streamOrder(5));
    expect(() => streamOrderRow(-1)).toThrow(RangeError);
  });
});

describe('substitution parameters', () => {
  const base = { seed: 42, stream: 1, set: 1, scaleFactor: 1 };
  it('gives every parameter each query names, plus stream', () => {
    const p = tprochQueryParams(base);
    for (let q = 1; q <= 22; q++) {
      for (const name of TPROCH_QUERY_PARAMS[q]!) expect(p[q]![name], `Q${q} ${name}`).toMatch(/^[A-Za-z0-9 .#-]+$/);
      expect(p[q]!['stream']).toBe('1');
    }
  });
  it('is reproducible for (seed, stream, set) and differs across streams and sets', () => {
    expect(tprochQueryParams(base)).toEqual(tprochQueryParams(base));
    expect(tprochQueryParams({ ...base, stream: 2 })).not.toEqual(tprochQueryParams(base));
    expect(tprochQueryParams({ ...base, set: 2 })).not.toEqual(tprochQueryParams(base));
    expect(tprochQueryParams({ ...base, seed: 43 })).not.toEqual(tprochQueryParams(base));
  });
  it('keeps every value within its TPC-H range over many draws', () => {
    const types = new Set(TPROCH_DISTS.p_types.members);
    const nations = new Set(TPROCH_DISTS.nations2.members);
    const q22codes = new Set<string>();
    for (let set = 1; set <= 300; set++) {
      const p = tprochQueryParams({ ...base, set });
      expect(Number(p[1]!['delta'])).toBeGreaterThanOrEqual(60);
      expect(Number(p[1]!['delta'])).toBeLessThanOrEqual(120);
      expect(Number(p[2]!['size'])).toBeGreaterThanOrEqual(1);
      expect(Number(p[2]!['size'])).toBeLessThanOrEqual(50);
      expect(['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER']).toContain(p[2]!['type']);
      expect(p[3]!['date']).toMatch(/^1995-03-(0[1-9]|[12]\d|3[01])$/);
      expect(p[4]!['date']! >= '1993-02-01' && p[4]!['date']! <= '1997-11-01').toBe(true);
      expect(p[6]!['discount']).toMatch(/^0\.0[2-9]$/);
      expect(['24', '25']).toContain(p[6]!['quantity']);
      expect(p[7]!['nation1']).not.toBe(p[7]!['nation2']);
      expect(nations.has(p[7]!['nation1']!)).toBe(true);
      expect(types.has(p[8]!['type']!)).toBe(true);
      expect(p[10]!['date']! >= '1993-02-01' && p[10]!['date']! <= '1995-01-01').toBe(true);
      expect(p[12]!['shipmode1']).not.toBe(p[12]!['shipmode2']);
      const sizes = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => Number(p[16]![`size${i}`]));
      expect(new Set(sizes).size).toBe(8);
      expect(p[16]!['brand']).toMatch(/^Brand#[1-5][1-5]$/);
      expect(p[16]!['type']!.split(' ')).toHaveLength(2);
      expect(Number(p[18]!['quantity'])).toBeGreaterThanOrEqual(312);
      expect(Number(p[18]!['quantity'])).toBeLessThanOrEqual(315);
      expect(Number(p[19]!['quantity2'])).toBeGreaterThanOrEqual(10);
      expect(Number(p[19]!['quantity3'])).toBeLessThanOrEqual(30);
      const codes = [1, 2, 3, 4, 5, 6, 7].map((i) => p[22]![`i${i}`]!);
      expect(new Set(codes).size).toBe(7);
      for (const c of codes) {
        expect(Number(c)).toBeGreaterThanOrEqual(10);
        expect(Number(c)).toBeLessThanOrEqual(34);
        q22codes.add(c);
      }
    }
    expect(q22codes.size).toBe(25);
  });
  it('pairs Q8 nation with its own region', () => {
    const region: Record<string, string> = { BRAZIL: 'AMERICA', FRANCE: 'EUROPE', JAPAN: 'ASIA', KENYA: 'AFRICA', IRAN: 'MIDDLE EAST', CANADA: 'AMERICA', CHINA: 'ASIA' };
    let seen = 0;
    for (let set = 1; set <= 200; set++) {
      const p = tprochQueryParams({ ...base, set })[8]!;
      if (region[p['nation']!]) {
        expect(p['region']).toBe(region[p['nation']!]);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
  it('formats Q11 fraction 0.0001/SF as %11.10f', () => {
    expect(q11Fraction(1)).toBe('0.0001000000');
    expect(q11Fraction(10)).toBe('0.0000100000');
    expect(q11Fraction(0.01)).toBe('0.0100000000');
    expect(tprochQueryParams({ ...base, scaleFactor: 100 })[11]!['fraction']).toBe('0.0000010000');
  });
  it('maps qgen month indexes to first days', () => {
    expect(qgenMonthStart(1)).toBe('1993-02-01');
    expect(qgenMonthStart(12)).toBe('1994-01-01');
    expect(qgenMonthStart(58)).toBe('1997-11-01');
  });
  it('uses the TPC-H qualification values with validation', () => {
    const p = tprochQueryParams({ ...base, validation: true, scaleFactor: 1 });
    expect(p[1]).toEqual({ delta: '90', stream: '1' });
    expect(p[2]).toMatchObject({ size: '15', type: 'BRASS', region: 'EUROPE' });
    expect(p[11]).toMatchObject({ nation: 'GERMANY', fraction: '0.0001000000' });
    expect(p[22]).toMatchObject(TPROCH_VALIDATION_PARAMS[22]!);
    expect(tprochQueryParams({ ...base, validation: true, stream: 3, set: 7 })[5]).toMatchObject({ region: 'ASIA', date: '1994-01-01' });
  });
  it('fills query text, Q15 with its untimed view statements', () => {
    const sql = { q1: "select {{delta}}", q15_view: 'create view revenue{{stream}} as {{date}}', q15: 'select * from revenue{{stream}}', q15_drop: 'drop view revenue{{stream}}' };
    const p = tprochQueryParams({ ...base, stream: 3 });
    expect(tprochQueryText(sql, 1, p[1]!)).toEqual({ query: 1, statements: [{ sql: `select ${p[1]!['delta']}`, timed: true }] });
    const q15 = tprochQueryText(sql, 15, p[15]!);
    expect(q15.statements.map((s) => s.timed)).toEqual([false, true, false]);
    expect(q15.statements[1]!.sql).toBe('select * from revenue3');
    expect(() => tprochQueryText(sql, 2, p[2]!)).toThrow(/q2/);
  });
});

describe('metrics', () => {
  it('geometric mean over queries returning rows, %.5f', () => {
    const g = geomeanReturningRows([
      { seconds: 2, rows: 1 },
      { seconds: 8, rows: 5 },
      { seconds: 100, rows: 0 },
    ]);
    expect(g).toEqual({ geomean: 4, count: 2 });
    expect(geomeanLine(g)).toBe('Geometric mean of query times returning rows (2) is 4.00000');
    expect(geomeanReturningRows([{ seconds: 1, rows: 0 }])).toEqual({ geomean: 0, count: 0 });
  });
  it('Power@Size over 22 queries and 2 refresh functions', () => {
    // All 24 intervals 2 s at SF 1: 3600 / 2.
    expect(powerAtSize({ scaleFactor: 1, querySeconds: Array(22).fill(2), refreshSeconds: [2, 2] })).toBeCloseTo(1800, 9);
    // SF 10, queries 1 s, RFs 4 s: 36000 / (4^2)^(1/24).
    expect(powerAtSize({ scaleFactor: 10, querySeconds: Array(22).fill(1), refreshSeconds: [4, 4] })).toBeCloseTo(36000 / Math.pow(16, 1 / 24), 6);
    // Without refresh: the 22 queries only.
    expect(powerAtSize({ scaleFactor: 1, querySeconds: Array(22).fill(0.5), refreshSeconds: [] })).toBeCloseTo(7200, 9);
    expect(powerAtSize({ scaleFactor: 1, querySeconds: Array(21).fill(1), refreshSeconds: [] })).toBeUndefined();
  });
  it('clamps intervals below max/1000 (clause 5.4.1.4)', () => {
    expect(clampIntervals([0, 0.001, 5])).toEqual([0.005, 0.005, 5]);
    const p = powerAtSize({ scaleFactor: 1, querySeconds: [...Array(21).fill(1), 0], refreshSeconds: [] });
    expect(p).toBeCloseTo(3600 / Math.pow(0.001, 1 / 22), 6);
  });
  it('Throughput@Size and QphH', () => {
    expect(throughputAtSize(2, 3600, 1)).toBe(44);
    expect(throughputAtSize(5, 1000, 100)).toBeCloseTo((5 * 22 * 3600 * 100) / 1000, 9);
    expect(throughputAtSize(2, 0, 1)).toBeUndefined();
    expect(qphh(1800, 44)).toBeCloseTo(Math.sqrt(1800 * 44), 9);
    expect(qphh(undefined, 44)).toBeUndefined();
  });
});

describe('build plan', () => {
  const rows = (sf: number) => ({ supplier: sf * 10000, customer: sf * 150000, part: sf * 200000, orders: sf * 1500000 });
  it('splits SF·10000 by the chunk rule with multipliers 1/15/20/150', () => {
    const plan = tprochBuildPlan(rows(1), 3);
    expect(plan.map((w) => w.worker)).toEqual([2, 3, 4]);
    expect(plan.map((w) => w.base)).toEqual([[1, 3333], [3334, 6666], [6667, 10000]]);
    for (const w of plan) for (const [t, m] of Object.entries(TPROCH_MULTIPLIERS)) {
      const r = w.ranges[t as keyof typeof TPROCH_MULTIPLIERS];
      expect(r).toEqual([(w.base[0] - 1) * m + 1, w.base[1] * m]);
    }
  });
  it('covers every row exactly once in units of bounded size', () => {
    for (const [sf, n] of [[0.01, 1], [0.01, 3], [0.1, 4], [1, 7], [0.0001, 2]] as const) {
      const plan = tprochBuildPlan(rows(sf), n);
      for (const t of ['supplier', 'customer', 'part', 'orders'] as const) {
        const units = plan.flatMap((w) => w.units).filter((u) => u.kind === t) as { from: number; to: number }[];
        let next = 1;
        for (const u of units) {
          expect(u.from).toBe(next);
          expect(u.to - u.from + 1).toBeLessThanOrEqual(5000);
          next = u.to + 1;
        }
        expect(next - 1).toBe(Math.round(rows(sf)[t]));
      }
    }
    expect(tprochBuildPlan(rows(0.0001), 4)).toHaveLength(1);
  });
  it('expected rows', () => {
    expect(tprochExpectedRows(rows(1), 6001215)).toEqual({ region: 5, nation: 25, supplier: 10000, customer: 150000, part: 200000, partsupp: 800000, orders: 1500000, lineitem: 6001215 });
  });
});

describe('check', () => {
  const expected = { region: 5, nation: 25, supplier: 100, customer: 1500, part: 2000, partsupp: 8000, orders: 15000, lineitem: 60175 };
  it('passes a complete schema at its SF', () => {
    const items = evaluateTprochCheck({ rowCounts: { ...expected } }, 0.01, expected);
    expect(items.map((i) => i.ok)).toEqual([true, true, true]);
  });
  it('reports missing tables, short tables and an SF mismatch', () => {
    const { lineitem: _l, ...noLineitem } = expected;
    expect(evaluateTprochCheck({ rowCounts: noLineitem }, 0.01, expected)[0]).toMatchObject({ ok: false, detail: 'missing: lineitem' });
    const short = evaluateTprochCheck({ rowCounts: { ...expected, lineitem: 59000, customer: 1499 } }, 0.01, expected);
    expect(short[1]!.ok).toBe(false);
    expect(short[1]!.detail).toContain('lineitem has 59000 rows, expected >= 59573');
    expect(short[1]!.detail).toContain('customer has 1499 rows');
    // lineitem at 99% passes (refreshes move it).
    expect(evaluateTprochCheck({ rowCounts: { ...expected, lineitem: 59574 } }, 0.01, expected)[1]!.ok).toBe(true);
    expect(evaluateTprochCheck({ rowCounts: { ...expected } }, 0.1, expected)[2]).toMatchObject({ ok: false, detail: 'count(supplier)/10000 = 0.01, scale factor 0.1' });
  });
});
