import { describe, expect, it } from 'vitest';
import { Rng } from '../random.js';
import type { Value } from '../bulk/encode.js';
import { TproccGenerator } from '../tprocc/generate.js';
import { warehouseUnits } from '../tprocc/plan.js';
import { alphaFixed } from '../tprocc/rules.js';
import { CHBENCH_COLUMNS, CHBENCH_TABLES, type ChbenchTable } from './columns.js';
import { ChbenchGenerator, chbenchUnits, type ChbenchGeneratedTable } from './generate.js';
import { CHBENCH_NATIONS, CHBENCH_REGIONS, CHBENCH_SUPPLIERS, chbenchNationOf, chbenchSupplierOf } from './nations.js';

function generate(format: 'tuples' | 'pg-text' | 'csv', seed = 2011): ChbenchGeneratedTable[] {
  const g = new ChbenchGenerator({ seed }, format);
  return chbenchUnits().flatMap((u) => g.generate(u));
}

const tuples = (ts: ChbenchGeneratedTable[], t: ChbenchTable): Value[][] => ts.filter((x) => x.table === t).flatMap((x) => x.data as Value[][]);

/** The 62 characters TPROC-C writes in c_state (and every a-string), read from the generator itself. */
function stateAlphabet(): Set<string> {
  const rng = new Rng(99);
  const seen = new Set<string>();
  for (let i = 0; i < 20000; i++) seen.add(alphaFixed(rng, 1));
  return seen;
}

describe('CH-benCHmark rows: REGION, NATION, SUPPLIER', () => {
  const all = generate('tuples');
  const region = tuples(all, 'region');
  const nation = tuples(all, 'nation');
  const supplier = tuples(all, 'supplier');

  it('has the cardinalities 5, 62 and 10,000, one unit per table', () => {
    expect(chbenchUnits().map((u) => u.kind)).toEqual([...CHBENCH_TABLES]);
    expect(region.length).toBe(5);
    expect(nation.length).toBe(62);
    expect(supplier.length).toBe(10000);
    expect(CHBENCH_SUPPLIERS).toBe(10000);
    for (const t of CHBENCH_TABLES) expect(tuples(all, t).filter((row) => row.length !== CHBENCH_COLUMNS[t].length)).toEqual([]);
  });

  it('keys: regions 1..5, nations the ASCII codes of 0-9 A-Z a-z, suppliers 0..9999, all unique', () => {
    expect(region.map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
    const codes = (from: string, to: string) => Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) => from.charCodeAt(0) + i);
    expect(nation.map((n) => n[0])).toEqual([...codes('0', '9'), ...codes('A', 'Z'), ...codes('a', 'z')]);
    expect(supplier.map((s) => s[0])).toEqual(Array.from({ length: 10000 }, (_, i) => i));
  });

  it('references hold: every n_regionkey is a region, every su_nationkey a nation, every region has nations', () => {
    const regionKeys = new Set(region.map((r) => r[0]));
    const nationKeys = new Set(nation.map((n) => n[0]));
    for (const n of nation) expect(regionKeys.has(n[2]!), `nation ${String(n[1])}`).toBe(true);
    expect(supplier.filter((s) => !nationKeys.has(s[3]!))).toEqual([]);
    for (const r of region) expect(nation.some((n) => n[2] === r[0]), `region ${String(r[1])}`).toBe(true);
    // Suppliers are spread over the nations: all 62 appear among 10,000 draws.
    expect(new Set(supplier.map((s) => s[3])).size).toBe(62);
  });

  it("maps every first character TPROC-C can write in c_state to exactly one nation, and no nation is unreachable", () => {
    const alphabet = stateAlphabet();
    expect(alphabet.size).toBe(62);
    const nationKeys = new Set(nation.map((n) => n[0] as number));
    expect(new Set([...alphabet].map((c) => chbenchNationOf(c)))).toEqual(nationKeys);
    for (const n of CHBENCH_NATIONS) expect(alphabet.has(n.char), n.name).toBe(true);
    // And on real TPROC-C customers: the first character of every c_state of a warehouse is a nation key.
    const customers = new TproccGenerator({ seed: 7, timestamp: '2024-01-01 00:00:00' }, 'tuples')
      .generate(warehouseUnits(1).find((u) => u.kind === 'customer')!)
      .find((t) => t.table === 'customer')!.data as Value[][];
    expect(customers.length).toBe(3000);
    expect(customers.map((c) => String(c[9])).filter((state) => !nationKeys.has(chbenchNationOf(state)))).toEqual([]);
  });

  it('maps every stock row to a supplier, and every supplier supplies stock of warehouse 1', () => {
    const keys = new Set(supplier.map((s) => s[0]));
    const supplied = new Set<number>();
    for (let w = 1; w <= 3; w++) {
      for (let i = 1; i <= 100000; i++) {
        const k = chbenchSupplierOf(w, i);
        if (!keys.has(k)) throw new Error(`stock (${w}, ${i}) maps to supplier ${k}, which does not exist`);
        if (w === 1) supplied.add(k);
      }
    }
    expect(supplied.size).toBe(10000);
    expect(chbenchSupplierOf(3, 5000)).toBe(5000);
    expect(chbenchSupplierOf(2, 5000)).toBe(0);
  });

  it('has the names the 22 queries compare: Germany in Europe, Cambodia in Asia', () => {
    const regionOf = (name: string) => CHBENCH_REGIONS.find((r) => r.key === CHBENCH_NATIONS.find((n) => n.name === name)!.region)!.name;
    expect(regionOf('Germany')).toBe('Europe');
    expect(regionOf('Cambodia')).toBe('Asia');
    expect(region.map((r) => r[1])).toEqual(['Africa', 'America', 'Asia', 'Australia', 'Europe']);
    expect(new Set(nation.map((n) => n[1])).size).toBe(62);
  });

  it('follows the column rules: names, phones, balances, text lengths', () => {
    for (const r of region) expect(String(r[2]).length).toBeGreaterThanOrEqual(31);
    for (const r of region) expect(String(r[2]).length).toBeLessThanOrEqual(115);
    for (const n of nation) expect(String(n[3]).length).toBeGreaterThanOrEqual(31);
    for (const n of nation) expect(String(n[3]).length).toBeLessThanOrEqual(114);
    const position = new Map(CHBENCH_NATIONS.map((n, i) => [n.key, i]));
    const bad = supplier.filter(([key, name, address, nationKey, phone, acctbal, comment]) => {
      const a = String(address).length;
      const c = String(comment).length;
      return (
        name !== `Supplier#${String(key).padStart(9, '0')}` ||
        a < 10 || a > 40 ||
        !/^\d{2}-\d{3}-\d{3}-\d{4}$/.test(String(phone)) ||
        Number(String(phone).slice(0, 2)) !== 10 + position.get(nationKey as number)! ||
        !/^-?\d+\.\d{2}$/.test(String(acctbal)) ||
        c < 25 || c > 100
      );
    });
    expect(bad).toEqual([]);
    const balances = supplier.map((s) => Number(s[5]));
    const min = Math.min(...balances);
    const max = Math.max(...balances);
    expect(min).toBeGreaterThanOrEqual(-999.99);
    expect(min).toBeLessThan(-900);
    expect(max).toBeLessThanOrEqual(9999.99);
    expect(max).toBeGreaterThan(9900);
  });

  it('is reproducible for a seed, differs for another, and the three formats carry the same rows', () => {
    expect(JSON.stringify(generate('tuples'))).toBe(JSON.stringify(all));
    const other = tuples(generate('tuples', 2012), 'supplier');
    expect(other.map((s) => s[6])).not.toEqual(supplier.map((s) => s[6]));
    const text = generate('pg-text');
    const csv = generate('csv');
    for (const t of CHBENCH_TABLES) {
      const rows = tuples(all, t);
      expect(rows.flat().filter((v) => /[\t,\\\n"']/.test(String(v)))).toEqual([]);
      const encoded = (sep: string) => rows.map((r) => r.join(sep) + '\n').join('');
      expect(text.find((x) => x.table === t)!.data).toBe(encoded('\t'));
      expect(csv.find((x) => x.table === t)!.data).toBe(encoded(','));
    }
  });
});
