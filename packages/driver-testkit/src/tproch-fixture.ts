import { TPROCH_COLUMNS, TPROCH_QUERY_PARAMS, TprochGenerator, fillQuery, tprochBaseRows, type BulkFormat, type TprochUnit, type TprochGeneratedTable, type TprochNewOrder, type TprochParamValues, type TprochQueryText, type Value } from '@sledge/core';
import { TPROCH_TABLES, type TprochTable } from '@sledge/protocol';

/**
 * A small, consistent TPROC-H data set for driver tests, built here (not the
 * generator): the 5 regions and 25 nations of TPC-H, 20 suppliers, 60
 * customers (the last 12 without orders), 40 parts with 4 suppliers each,
 * 150 orders with 1..7 lineitems each, dates 1992..1998, keys and foreign
 * keys consistent, values drawn by a seeded PRNG from the TPC-H domains.
 * Rows are in TPROCH_COLUMNS order.
 */
export type TprochFixture = Record<TprochTable, Value[][]>;

const REGIONS = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];
const NATIONS: [string, number][] = [
  ['ALGERIA', 0], ['ARGENTINA', 1], ['BRAZIL', 1], ['CANADA', 1], ['EGYPT', 4], ['ETHIOPIA', 0], ['FRANCE', 3], ['GERMANY', 3],
  ['INDIA', 2], ['INDONESIA', 2], ['IRAN', 4], ['IRAQ', 4], ['JAPAN', 2], ['JORDAN', 4], ['KENYA', 0], ['MOROCCO', 0],
  ['MOZAMBIQUE', 0], ['PERU', 1], ['CHINA', 2], ['ROMANIA', 3], ['SAUDI ARABIA', 4], ['VIETNAM', 2], ['RUSSIA', 3],
  ['UNITED KINGDOM', 3], ['UNITED STATES', 1],
];
const SEGMENTS = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'HOUSEHOLD', 'MACHINERY'];
const TYPE1 = ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'];
const TYPE2 = ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'];
const TYPE3 = ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'];
const CONT1 = ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'];
const CONT2 = ['CASE', 'BOX', 'BAG', 'JAR', 'PACK', 'PKG', 'CAN', 'DRUM'];
const COLORS = ['almond', 'antique', 'aquamarine', 'azure', 'beige', 'bisque', 'black', 'blanched', 'blue', 'blush', 'brown', 'burlywood', 'forest', 'green', 'ivory'];
const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'];
const INSTRUCT = ['DELIVER IN PERSON', 'COLLECT COD', 'TAKE BACK RETURN', 'NONE'];
const MODES = ['REG AIR', 'AIR', 'RAIL', 'TRUCK', 'MAIL', 'FOB', 'SHIP'];
const WORDS = ['carefully', 'final', 'special', 'pending', 'requests', 'packages', 'accounts', 'deposits', 'unusual', 'express', 'furiously', 'ironic', 'quickly'];

export const FIXTURE_SIZES = { supplier: 20, customer: 60, part: 40, orders: 150 } as const;
const CUSTOMERS_WITH_ORDERS = 48;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const cents = (x: number) => Math.round(x * 100) / 100;

/** The fixture's partsupp suppliers of a part: four distinct suppliers. */
export function fixtureSuppliers(part: number): number[] {
  const s = FIXTURE_SIZES.supplier;
  return [0, 1, 2, 3].map((i) => ((part + i * 5) % s) + 1);
}

interface Ctx {
  rnd: () => number;
  int(lo: number, hi: number): number;
  pick<X>(xs: readonly X[]): X;
  text(words: number): string;
}

function ctx(seed: number): Ctx {
  const rnd = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <X>(xs: readonly X[]) => xs[int(0, xs.length - 1)]!;
  const text = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return { rnd, int, pick, text };
}

const phone = (nation: number, c: Ctx) => `${10 + nation}-${c.int(100, 999)}-${c.int(100, 999)}-${c.int(1000, 9999)}`;

/** One order (key, customer, date index i) and its lineitems, as the refresh functions get them. */
function makeOrder(key: number, c: Ctx, parts: Value[][]): TprochNewOrder {
  const custkey = c.int(1, CUSTOMERS_WITH_ORDERS);
  const orderMs = Date.UTC(1992, 0, 2) + c.int(0, 2400) * DAY;
  const cutoff = Date.UTC(1995, 5, 17);
  const lines: Value[][] = [];
  let total = 0;
  for (let n = 1, count = c.int(1, 7); n <= count; n++) {
    const partkey = c.int(1, FIXTURE_SIZES.part);
    const suppkey = c.pick(fixtureSuppliers(partkey));
    const qty = c.int(1, 50);
    const ext = cents(Number(parts[partkey - 1]![7]) * qty);
    const disc = c.int(0, 10) / 100;
    const tax = c.int(0, 8) / 100;
    const ship = orderMs + c.int(1, 121) * DAY;
    const commit = orderMs + c.int(30, 90) * DAY;
    const receipt = ship + c.int(1, 30) * DAY;
    const flag = receipt <= cutoff ? c.pick(['R', 'A']) : 'N';
    const status = ship <= cutoff ? 'F' : 'O';
    total += ext * (1 - disc) * (1 + tax);
    lines.push([key, partkey, suppkey, n, qty, ext, disc, tax, flag, status, isoDay(ship), isoDay(commit), isoDay(receipt), c.pick(INSTRUCT), c.pick(MODES), c.text(3)]);
  }
  const statuses = new Set(lines.map((l) => l[9]));
  const status = statuses.size === 2 ? 'P' : statuses.has('F') ? 'F' : 'O';
  const order: Value[] = [key, custkey, status, cents(total), isoDay(orderMs), c.pick(PRIORITIES), `Clerk#${String(c.int(1, 10)).padStart(9, '0')}`, 0, c.text(4)];
  return { order, lineitems: lines };
}

/** The fixture data set (deterministic). */
export function tprochFixture(seed = 20261123): TprochFixture {
  const c = ctx(seed);
  const region = REGIONS.map((r, i) => [i, r, c.text(5)]);
  const nation = NATIONS.map(([n, r], i) => [i, n, r, c.text(5)]);
  const supplier: Value[][] = [];
  for (let s = 1; s <= FIXTURE_SIZES.supplier; s++) {
    const nk = (s * 7) % 25;
    const comment = s === 3 ? 'slyly Customer ironic Complaints final' : c.text(6);
    supplier.push([s, `Supplier#${String(s).padStart(9, '0')}`, `addr ${c.int(1, 999)}`, nk, phone(nk, c), cents(c.int(-99999, 999999) / 100), comment]);
  }
  const customer: Value[][] = [];
  for (let k = 1; k <= FIXTURE_SIZES.customer; k++) {
    const nk = (k * 3) % 25;
    customer.push([k, `Customer#${String(k).padStart(9, '0')}`, `street ${k}`, nk, phone(nk, c), cents(c.int(-99999, 999999) / 100), SEGMENTS[k % 5]!, c.text(6)]);
  }
  const part: Value[][] = [];
  for (let p = 1; p <= FIXTURE_SIZES.part; p++) {
    const m = c.int(1, 5);
    const name = [COLORS[p % COLORS.length]!, c.pick(COLORS), c.pick(COLORS), c.pick(COLORS), c.pick(COLORS)].join(' ');
    const type = `${TYPE1[p % 6]!} ${TYPE2[p % 5]!} ${TYPE3[(p >> 1) % 5]!}`;
    const container = `${CONT1[p % 5]!} ${CONT2[p % 8]!}`;
    const price = (90000 + (Math.floor(p / 10) % 20001) + 100 * (p % 1000)) / 100;
    part.push([p, name, `Manufacturer#${m}`, `Brand#${m}${c.int(1, 5)}`, type, (p % 15) + 1, container, price, c.text(2)]);
  }
  const partsupp: Value[][] = [];
  for (let p = 1; p <= FIXTURE_SIZES.part; p++) {
    for (const s of fixtureSuppliers(p)) partsupp.push([p, s, c.int(1, 9999), cents(c.int(100, 100000) / 100), c.text(8)]);
  }
  const orders: Value[][] = [];
  const lineitem: Value[][] = [];
  for (let i = 1; i <= FIXTURE_SIZES.orders; i++) {
    const o = makeOrder(i * 4, c, part);
    orders.push(o.order);
    lineitem.push(...o.lineitems);
  }
  return { region, nation, supplier, customer, part, partsupp, orders, lineitem };
}

/** New orders for RF1 with keys the fixture does not use (odd keys above the loaded ones). */
export function fixtureNewSales(count: number, seed = 7): TprochNewOrder[] {
  const c = ctx(seed);
  const parts = tprochFixture().part;
  return Array.from({ length: count }, (_, i) => makeOrder(FIXTURE_SIZES.orders * 4 + 1 + i * 2, c, parts));
}

/** Rows encoded in a loader's bulk format: pg-text (tab), csv (TPROC-H: '|', no quoting) or tuples. */
export function encodeRows(rows: Value[][], format: BulkFormat): string | Value[][] {
  if (format === 'tuples') return rows;
  const sep = format === 'pg-text' ? '\t' : '|';
  return rows.map((r) => r.map((v) => (v === null ? '\\N' : String(v))).join(sep) + '\n').join('');
}

/** The fixture as loader units (one per table, in load order). */
export function fixtureUnits(f: TprochFixture, format: BulkFormat): TprochGeneratedTable[][] {
  return TPROCH_TABLES.map((table) => {
    const rows = f[table];
    if (rows.some((r) => r.length !== TPROCH_COLUMNS[table].length)) throw new Error(`fixture ${table} rows do not have ${TPROCH_COLUMNS[table].length} columns`);
    return [{ table, rows: rows.length, data: encodeRows(rows, format) }];
  });
}

/**
 * Parameter values for each of the 22 queries (every name TPROCH_QUERY_PARAMS
 * lists), valid TPC-H values chosen to hit the fixture where it can.
 */
export function fixtureParams(f: TprochFixture, stream = 0): Record<number, TprochParamValues> {
  const p1 = f.part[0]!;
  const type1 = String(p1[4]);
  const supplierNation = Number(f.supplier.find((s) => s[0] === fixtureSuppliers(1)[0])![3]);
  const regionOf = (n: number) => String(f.region[Number(f.nation[n]![2])]![1]);
  const nationName = (n: number) => String(f.nation[n]![1]);
  const promo = f.part.find((p) => String(p[4]).startsWith('PROMO'))!;
  const l1 = f.lineitem[0]!;
  const p17 = f.part[Number(l1[1]) - 1]!;
  const values: Record<number, TprochParamValues> = {
    1: { delta: '90' },
    2: { size: String(p1[5]), type: type1.split(' ')[2]!, region: regionOf(supplierNation) },
    3: { segment: 'BUILDING', date: '1995-03-15' },
    4: { date: '1993-07-01' },
    5: { region: 'ASIA', date: '1994-01-01' },
    6: { date: '1994-01-01', discount: '0.06', quantity: '24' },
    7: { nation1: 'FRANCE', nation2: 'GERMANY' },
    8: { nation: 'BRAZIL', region: 'AMERICA', type: String(promo[4]) },
    9: { color: 'green' },
    10: { date: '1993-10-01' },
    11: { nation: nationName(supplierNation), fraction: '0.0001000000' },
    12: { shipmode1: 'MAIL', shipmode2: 'SHIP', date: '1994-01-01' },
    13: { word1: 'special', word2: 'requests' },
    14: { date: '1995-09-01' },
    15: { date: '1996-01-01', stream: String(stream) },
    16: { brand: 'Brand#45', type: 'MEDIUM POLISHED', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9' },
    17: { brand: String(p17[3]), container: String(p17[6]) },
    18: { quantity: '150' },
    19: { brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20' },
    20: { color: 'forest', date: '1994-01-01', nation: 'CANADA' },
    21: { nation: 'SAUDI ARABIA' },
    22: { i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17' },
  };
  for (let q = 1; q <= 22; q++) for (const name of TPROCH_QUERY_PARAMS[q]!) if (values[q]![name] === undefined) throw new Error(`fixture has no value for Q${q} ${name}`);
  return values;
}

/**
 * A query of an engine's queries.sql (its `-- name:` statements) ready to
 * run: Q15 as create view / select / drop view where the file has
 * q15_view and q15_drop, else the one statement.
 */
export function tprochQueryText(statements: Readonly<Record<string, string>>, query: number, values: TprochParamValues): TprochQueryText {
  const get = (name: string) => {
    const s = statements[name];
    if (s === undefined) throw new Error(`queries.sql has no statement ${name}`);
    return fillQuery(s, values);
  };
  if (query === 15 && statements['q15_view'] !== undefined) {
    return { query, statements: [{ sql: get('q15_view'), timed: false }, { sql: get('q15'), timed: true }, { sql: get('q15_drop'), timed: false }] };
  }
  return { query, statements: [{ sql: get(`q${query}`), timed: true }] };
}

/**
 * The TPC-H qualification (validation) parameter values (TPC-H clause
 * 2.4.x.4), Q11's fraction scaled to the SF (0.0001 / SF), Q15's view named
 * for `stream`.
 */
export function validationParams(scaleFactor: number, stream = 0): Record<number, TprochParamValues> {
  const values: Record<number, TprochParamValues> = {
    1: { delta: '90' },
    2: { size: '15', type: 'BRASS', region: 'EUROPE' },
    3: { segment: 'BUILDING', date: '1995-03-15' },
    4: { date: '1993-07-01' },
    5: { region: 'ASIA', date: '1994-01-01' },
    6: { date: '1994-01-01', discount: '0.06', quantity: '24' },
    7: { nation1: 'FRANCE', nation2: 'GERMANY' },
    8: { nation: 'BRAZIL', region: 'AMERICA', type: 'ECONOMY ANODIZED STEEL' },
    9: { color: 'green' },
    10: { date: '1993-10-01' },
    11: { nation: 'GERMANY', fraction: (0.0001 / scaleFactor).toFixed(10) },
    12: { shipmode1: 'MAIL', shipmode2: 'SHIP', date: '1994-01-01' },
    13: { word1: 'special', word2: 'requests' },
    14: { date: '1995-09-01' },
    15: { date: '1996-01-01', stream: String(stream) },
    16: { brand: 'Brand#45', type: 'MEDIUM POLISHED', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9' },
    17: { brand: 'Brand#23', container: 'MED BOX' },
    18: { quantity: '300' },
    19: { brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20' },
    20: { color: 'forest', date: '1994-01-01', nation: 'CANADA' },
    21: { nation: 'SAUDI ARABIA' },
    22: { i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17' },
  };
  return values;
}

const generated = new Map<number, TprochFixture>();

/** Every row of a generated data set (core TprochGenerator, tuples), read once per process. */
export function generatedData(scaleFactor: number): TprochFixture {
  let d = generated.get(scaleFactor);
  if (!d) {
    const g = new TprochGenerator(scaleFactor, 'tuples');
    const base = tprochBaseRows(scaleFactor);
    const out = Object.fromEntries(TPROCH_TABLES.map((t) => [t, [] as Value[][]])) as TprochFixture;
    const units: TprochUnit[] = [{ kind: 'region' }, ...(['supplier', 'customer', 'part', 'orders'] as const).map((kind) => ({ kind, from: 1, to: base[kind] }))];
    for (const u of units) for (const t of g.generate(u)) out[t.table].push(...(t.data as Value[][]));
    d = out;
    generated.set(scaleFactor, d);
  }
  return d;
}

/** A data set as loader units in a bulk format, at most `chunk` rows a unit. */
export function dataUnits(f: TprochFixture, format: BulkFormat, chunk = 20000): TprochGeneratedTable[][] {
  const units: TprochGeneratedTable[][] = [];
  for (const table of TPROCH_TABLES) {
    const rows = f[table];
    for (let at = 0; at < rows.length; at += chunk) {
      const part = rows.slice(at, at + chunk);
      units.push([{ table, rows: part.length, data: encodeRows(part, format) }]);
    }
  }
  return units;
}
