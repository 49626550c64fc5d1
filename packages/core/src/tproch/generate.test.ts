import { SledgeError, TPROCH_TABLES, type TprochTable } from '@sledge/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS } from './columns.js';
import { DBGEN_SF1_HEAD } from './fixtures/dbgen-sf1-head.js';
import { TPROCH_DISTS, TPROCH_NATION_REGION } from './dists.js';
import { formatCents } from './encode-tproch.js';
import {
  TprochGenerator,
  tprochBaseRows,
  tprochLineitemCount,
  tprochOrderKey,
  tprochPartSupplier,
  tprochRetailCents,
  tprochSizes,
  type TprochUnit,
} from './generate.js';
import type { TprochGeneratedTable } from './hooks.js';
import { tprochNewSales, tprochOldSalesKeys, tprochUpdateRange } from './refresh-data.js';
import { advanceSeed, mulmod, pmNext, TprochStreams } from './rng.js';
import { textBounds, tprochTextPoolAsync, TPROCH_TEXT_POOL_SIZE } from './text.js';

/** dbgen's SF 1 first rows per table (fixtures/dbgen-sf1-head.ts), without the trailing '|'. */
function fixture(): Record<string, string[]> {
  const text = DBGEN_SF1_HEAD;
  const out: Record<string, string[]> = {};
  let cur: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) out[line.slice(3)] = cur = [];
    else if (line && !line.startsWith('#')) cur!.push(line.slice(0, -1));
  }
  return out;
}

const lines = (t: TprochGeneratedTable): string[] => (t.data as string).split('\n').slice(0, -1);
const byTable = (ts: TprochGeneratedTable[]): Record<string, TprochGeneratedTable> => Object.fromEntries(ts.map((t) => [t.table, t]));

describe('TPROC-H random streams', () => {
  it('Park-Miller steps, jumps and mulmod agree', () => {
    let x = 1;
    for (let i = 0; i < 1000; i++) x = pmNext(x);
    expect(advanceSeed(1, 1000)).toBe(x);
    expect(pmNext(2147483646)).toBe((2147483646 * 16807) % 2147483647);
    expect(mulmod(2147483646, 2147483646)).toBe(1); // (−1)² mod p
    const st = new TprochStreams([0]);
    st.seek(0, 5);
    expect(st.v[0]).toBe(advanceSeed(1, 5));
  });

  it('text bounds are dbgen’s trunc(0.4·avg), trunc(1.6·avg)', () => {
    expect(textBounds(14)).toEqual([5, 22]);
    expect(textBounds(27)).toEqual([10, 43]);
    expect(textBounds(73)).toEqual([29, 116]);
    expect(textBounds(124)).toEqual([49, 198]);
  });

  it('distributions: region keys of the nations, 150 types, 40 containers, 92 colours', () => {
    expect(TPROCH_NATION_REGION).toEqual([0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1]);
    expect(TPROCH_DISTS.p_types.members).toHaveLength(150);
    expect(TPROCH_DISTS.p_types.members[149]).toBe('PROMO BRUSHED COPPER');
    expect(TPROCH_DISTS.p_cntr.members).toHaveLength(40);
    expect(TPROCH_DISTS.colors.members).toHaveLength(92);
    expect(TPROCH_DISTS.nouns.total).toBe(340);
  });

  it('formulas: sparse keys, retail price, part suppliers, money', () => {
    expect([1, 7, 8, 9, 16].map((i) => tprochOrderKey(i, 0))).toEqual([1, 7, 32, 33, 64]);
    expect(tprochOrderKey(1, 1)).toBe(9);
    expect(tprochRetailCents(1)).toBe(90100);
    expect(tprochRetailCents(10)).toBe(91001);
    expect([0, 1, 2, 3].map((s) => tprochPartSupplier(1, s, 10000))).toEqual([2, 2502, 5002, 7502]);
    expect([formatCents(-28384), formatCents(5), formatCents(0), formatCents(-5)]).toEqual(['-283.84', '0.05', '0.00', '-0.05']);
  });
});

describe('TPROC-H sizes', () => {
  it('row counts per SF as dbgen', () => {
    expect(tprochBaseRows(1)).toEqual({ supplier: 10000, customer: 150000, part: 200000, orders: 1500000 });
    expect(tprochBaseRows(0.1)).toEqual({ supplier: 1000, customer: 15000, part: 20000, orders: 150000 });
    expect(tprochBaseRows(0.01)).toEqual({ supplier: 100, customer: 1500, part: 2000, orders: 15000 });
    expect(tprochBaseRows(10).orders).toBe(15000000);
    expect(tprochSizes(1).updateOrders).toBe(1500);
    expect(tprochSizes(0.01).updateOrders).toBe(10);
  });

  it('exact lineitem counts (SF 1 6,001,215; 0.1 600,572; 0.01 60,175)', () => {
    expect(tprochLineitemCount(1)).toBe(6001215);
    expect(tprochLineitemCount(0.1)).toBe(600572);
    expect(tprochLineitemCount(0.01)).toBe(60175);
  });

  it('bad scale factors and units are SledgeErrors naming the field', () => {
    expect(() => tprochSizes(0)).toThrow(SledgeError);
    expect(() => new TprochGenerator(1, 'xml' as never)).toThrow(/format/);
    const g = new TprochGenerator(0.01, 'csv');
    expect(() => g.generate({ kind: 'supplier', from: 0, to: 5 })).toThrow(SledgeError);
    expect(() => g.generate({ kind: 'supplier', from: 1, to: 101 })).toThrow(/1\.\.100/);
    expect(() => g.generate({ kind: 'item' } as unknown as TprochUnit)).toThrow(/unit kind/);
  });
});

describe('TPROC-H rows equal dbgen', () => {
  // Builds the 300 MiB text pool once for this file (yielding, so the runner stays in touch).
  let pool: Uint8Array;
  beforeAll(async () => {
    pool = await tprochTextPoolAsync();
  }, 300_000);

  it('text pool starts with dbgen’s first sentences', () => {
    expect(pool.length).toBe(TPROCH_TEXT_POOL_SIZE);
    expect(Buffer.from(pool.buffer, 0, 60).toString('latin1')).toMatch(/^[a-z]/);
    expect(pool[TPROCH_TEXT_POOL_SIZE - 1]).toBeGreaterThan(0);
  });

  it('SF 1: the first rows of all eight tables, byte for byte', () => {
    const want = fixture();
    const g = new TprochGenerator(1, 'csv');
    const got = byTable([
      ...g.generate({ kind: 'region' }),
      ...g.generate({ kind: 'supplier', from: 1, to: 10 }),
      ...g.generate({ kind: 'customer', from: 1, to: 10 }),
      ...g.generate({ kind: 'part', from: 1, to: 10 }),
      ...g.generate({ kind: 'orders', from: 1, to: 10 }),
    ]);
    for (const t of TPROCH_TABLES) expect(lines(got[t]!), t).toEqual(want[t]);
  });

  it('SF 0.1 and 0.01: first order and lineitem as dbgen writes them', () => {
    const g01 = byTable(new TprochGenerator(0.01, 'csv').generate({ kind: 'orders', from: 1, to: 1 }));
    expect(lines(g01.orders!)[0]).toBe('1|370|O|172799.49|1996-01-02|5-LOW|Clerk#000000951|0|nstructions sleep furiously among ');
    expect(lines(g01.lineitem!)[0]).toBe('1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the');
    const g1 = byTable(new TprochGenerator(0.1, 'csv').generate({ kind: 'orders', from: 1, to: 1 }));
    expect(lines(g1.lineitem!)[0]).toBe('1|15519|785|1|17|24386.67|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the');
    const g001 = byTable(new TprochGenerator(0.001, 'csv').generate({ kind: 'orders', from: 1, to: 1 }));
    expect(lines(g001.lineitem!)[0]).toBe('1|156|4|1|17|17954.55|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the');
  });

  it('SF 1: a row deep in a table starts its streams where dbgen’s do (supplier with a BBB comment)', () => {
    // Rows with "Customer ... Complaints/Recommends" exist (10 per 10000 suppliers) and keep the comment length.
    const g = new TprochGenerator(1, 'tuples');
    const rows = g.generate({ kind: 'supplier', from: 1, to: 10000 })[0]!.data as (string | number)[][];
    const bbb = rows.filter((r) => /Customer .*(Complaints|Recommends)/.test(String(r[6])));
    expect(bbb.length).toBeGreaterThan(0);
    expect(bbb.length).toBeLessThan(30);
  });

  it('SF 1 update 1 (RF1) is dbgen -U 1: orders.tbl.u1 and lineitem.tbl.u1 lines', () => {
    // Lines of dbgen's SF 1 refresh files as quoted in public material.
    const news = tprochNewSales(1, 1);
    expect(news).toHaveLength(1500);
    expect(news[0]!.order.join('|')).toBe('9|12658|O|129872.68|1998-07-06|4-NOT SPECIFIED|Clerk#000000248|0| blithely final packages cajole. regular waters are final requests. regular ac');
    const csvLine = (v: (string | number | null)[], money: number[]) => v.map((x, i) => (money.includes(i) ? (x as number).toFixed(2) : String(x))).join('|');
    const LINE_MONEY = [5, 6, 7];
    expect(csvLine(news[0]!.lineitems[0]!, LINE_MONEY)).toBe('9|127857|5394|1|45|84818.25|0.09|0.05|N|O|1998-10-20|1998-09-10|1998-11-15|COLLECT COD|SHIP|es haggle blithely above the silent ac');
    const last = news[1499]!;
    expect(last.order[0]).toBe(5996);
    expect(csvLine(last.lineitems[5]!, LINE_MONEY).trimEnd()).toBe('5996|101235|1236|6|41|50685.43|0.10|0.06|A|F|1994-08-17|1994-07-24|1994-09-01|DELIVER IN PERSON|FOB| print furiously except the special,');
    expect(tprochOldSalesKeys(1, 1).slice(-2)).toEqual([5987, 5988]);
  });

  it('pg-text is the same rows with tabs', () => {
    const u: TprochUnit = { kind: 'orders', from: 100, to: 140 };
    const csv = new TprochGenerator(0.01, 'csv').generate(u);
    const pg = new TprochGenerator(0.01, 'pg-text').generate(u);
    for (let i = 0; i < csv.length; i++) expect((pg[i]!.data as string).replaceAll('\t', '|')).toBe(csv[i]!.data);
  });
});

describe('TPROC-H SF 0.01 full data set', () => {
  const sf = 0.01;
  const sizes = tprochSizes(sf);
  const whole = (format: 'csv' | 'tuples'): Record<string, TprochGeneratedTable> => {
    const g = new TprochGenerator(sf, format);
    return byTable([
      ...g.generate({ kind: 'region' }),
      ...g.generate({ kind: 'supplier', from: 1, to: sizes.supplier }),
      ...g.generate({ kind: 'customer', from: 1, to: sizes.customer }),
      ...g.generate({ kind: 'part', from: 1, to: sizes.part }),
      ...g.generate({ kind: 'orders', from: 1, to: sizes.orders }),
    ]);
  };
  let csv: Record<string, TprochGeneratedTable>;
  beforeAll(async () => {
    await tprochTextPoolAsync();
    csv = whole('csv');
  }, 300_000);

  it('row counts', () => {
    const want: Record<TprochTable, number> = {
      region: 5,
      nation: 25,
      supplier: 100,
      customer: 1500,
      part: 2000,
      partsupp: 8000,
      orders: 15000,
      lineitem: 60175,
    };
    for (const t of TPROCH_TABLES) {
      expect(csv[t]!.rows, t).toBe(want[t]);
      expect(lines(csv[t]!), t).toHaveLength(want[t]);
    }
  });

  it('units split anywhere give the same bytes as one unit', () => {
    const g = new TprochGenerator(sf, 'csv');
    const split = (kind: 'supplier' | 'customer' | 'part' | 'orders', cuts: number[]): Record<string, string> => {
      const out: Record<string, string> = {};
      let from = 1;
      for (const to of [...cuts, sizes[kind]]) {
        for (const t of g.generate({ kind, from, to })) out[t.table] = (out[t.table] ?? '') + (t.data as string);
        from = to + 1;
      }
      return out;
    };
    const parts = { ...split('supplier', [1, 37, 38]), ...split('customer', [700]), ...split('part', [3, 999]), ...split('orders', [1, 8, 5000, 14999]) };
    for (const t of ['supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem']) expect(parts[t] === csv[t]!.data, t).toBe(true);
  });

  it('no value holds a separator, newline or backslash; every row has its columns', () => {
    const bad: string[] = [];
    for (const t of TPROCH_TABLES) {
      const text = csv[t]!.data as string;
      if (text.includes('\t') || text.includes('\\') || text.includes('\r')) bad.push(`${t}: tab, backslash or CR`);
      for (const line of lines(csv[t]!)) if (line.split('|').length !== TPROCH_COLUMNS[t].length) bad.push(`${t}: ${line}`);
    }
    const tuples = whole('tuples');
    for (const t of TPROCH_TABLES) {
      for (const row of tuples[t]!.data as (string | number)[][]) {
        if (row.length !== TPROCH_COLUMNS[t].length) bad.push(`${t}: ${row.length} values`);
        for (const v of row) if (typeof v === 'string' && /[\t|\n\\]/.test(v)) bad.push(`${t}: ${v}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('keys: customers with orders are never multiples of 3, lineitem suppliers are the part’s partsupp suppliers', () => {
    const ps = new Set(lines(csv.partsupp!).map((l) => l.split('|').slice(0, 2).join('|')));
    expect(lines(csv.lineitem!).filter((l) => !ps.has(l.split('|').slice(1, 3).join('|')))).toEqual([]);
    expect(lines(csv.orders!).filter((l) => Number(l.split('|')[1]) % 3 === 0)).toEqual([]);
  });

  it('RF1/RF2 of update 1 and 2: orders come back to the start, lineitems by the difference of the sets', () => {
    const orderKeys = new Set(lines(csv.orders!).map((l) => Number(l.split('|')[0])));
    const linesPerOrder = new Map<number, number>();
    for (const l of lines(csv.lineitem!)) {
      const k = Number(l.split('|')[0]);
      linesPerOrder.set(k, (linesPerOrder.get(k) ?? 0) + 1);
    }
    for (const u of [1, 2]) {
      const r = tprochUpdateRange(sf, u);
      expect(r.to - r.from + 1).toBe(sizes.updateOrders);
      const news = tprochNewSales(sf, u);
      const olds = tprochOldSalesKeys(sf, u);
      expect(news).toHaveLength(sizes.updateOrders);
      expect(olds).toHaveLength(sizes.updateOrders);
      let orders = orderKeys.size;
      let lineitems = csv.lineitem!.rows;
      for (const o of news) {
        const key = o.order[0] as number;
        expect(orderKeys.has(key)).toBe(false);
        expect(o.order).toHaveLength(TPROCH_COLUMNS.orders.length);
        expect(o.lineitems.length).toBeGreaterThanOrEqual(1);
        for (const l of o.lineitems) expect(l[0]).toBe(key);
        orders++;
        lineitems += o.lineitems.length;
      }
      for (const k of olds) {
        expect(orderKeys.has(k)).toBe(true);
        orders--;
        lineitems -= linesPerOrder.get(k)!;
      }
      expect(orders).toBe(orderKeys.size);
      const delta = news.reduce((n, o) => n + o.lineitems.length, 0) - olds.reduce((n, k) => n + linesPerOrder.get(k)!, 0);
      expect(lineitems).toBe(csv.lineitem!.rows + delta);
    }
    expect(tprochOldSalesKeys(sf, 1)).toEqual([1, 2, 3, 4, 5, 6, 7, 32, 33, 34]);
    expect(tprochNewSales(sf, 1)[0]!.order[0]).toBe(9);
  });
});

/** Units of 10^-6 dollars to dollars with 2 places, rounded half up. */
const money = (micro: bigint): string => {
  const cents = (micro + 5000n) / 10000n;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
};

/** TPC-H Q1 (delta 90) over SF 1 lineitem equals dbgen's answers/q1.out. Long: SLEDGE_TPROCH_SF1=1. */
describe.skipIf(!process.env.SLEDGE_TPROCH_SF1)('TPROC-H SF 1 qualification (SLEDGE_TPROCH_SF1=1)', () => {
  it('Q1 aggregates equal the published answer', { timeout: 600_000 }, async () => {
    const g = new TprochGenerator(1, 'tuples');
    const agg = new Map<string, { qty: number; base: number; disc: number; charge: bigint; discSum: number; n: number }>();
    const cutoff = '1998-09-02';
    const step = 50000;
    for (let from = 1; from <= 1500000; from += step) {
      // Let vitest's worker talk to the runner between chunks.
      await new Promise((r) => setImmediate(r));
      const t = byTable(g.generate({ kind: 'orders', from, to: from + step - 1 }));
      for (const r of t.lineitem!.data as (string | number)[][]) {
        if ((r[10] as string) > cutoff) continue;
        const key = `${r[8]}|${r[9]}`;
        const a = agg.get(key) ?? { qty: 0, base: 0, disc: 0, charge: 0n, discSum: 0, n: 0 };
        // In cents to stay exact: price·(1−d) and ·(1+t) with d, t in hundredths.
        const price = Math.round((r[5] as number) * 100);
        const d = Math.round((r[6] as number) * 100);
        const tax = Math.round((r[7] as number) * 100);
        a.qty += r[4] as number;
        a.base += price;
        a.disc += price * (100 - d);
        a.charge += BigInt(price * (100 - d) * (100 + tax)); // up to 1e11 per row: the sum needs more than 2^53
        a.discSum += d;
        a.n++;
        agg.set(key, a);
      }
    }
    const got = [...agg.entries()].sort().map(([k, a]) =>
      [k, a.qty.toFixed(2), (a.base / 100).toFixed(2), (a.disc / 1e4).toFixed(2), money(a.charge), (a.qty / a.n).toFixed(2), (a.base / 100 / a.n).toFixed(2), (a.discSum / 100 / a.n).toFixed(2), a.n].join('|'),
    );
    expect(got).toEqual([
      'A|F|37734107.00|56586554400.73|53758257134.87|55909065222.83|25.52|38273.13|0.05|1478493',
      'N|F|991417.00|1487504710.38|1413082168.05|1469649223.19|25.52|38284.47|0.05|38854',
      'N|O|74476040.00|111701729697.74|106118230307.61|110367043872.50|25.50|38249.12|0.05|2920374',
      'R|F|37719753.00|56568041380.90|53741292684.60|55889619119.83|25.51|38250.85|0.05|1478870',
    ]);
  });
});
