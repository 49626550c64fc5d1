import { Rng, streamKey } from '../random.js';
import { TPROCH_DISTS, TPROCH_NATION_REGION, type TprochDist } from './dists.js';
import { TPROCH_QUERY_PARAMS, fillQuery, type TprochParamValues } from './query-params.js';
import type { TprochQueryText } from './hooks.js';

/** streamKey tag of the substitution parameters (distinct from the generator's tags). */
const PARAMS_TAG = 0x7c41;

export interface TprochParamsInput {
  /** The job's seed. */
  seed: number;
  /** Stream number (0 = power, 1..S throughput). */
  stream: number;
  /** Query set, 1-based. */
  set: number;
  scaleFactor: number;
  /** TPC-H qualification (validation) values instead of random ones. */
  validation?: boolean;
}

/** dbgen's pick_str: j = U[1, Σweights], the first member whose running weight sum is >= j. */
function pickWeighted(rng: Rng, d: TprochDist): { value: string; index: number } {
  const j = rng.int(1, d.total);
  const index = d.cumulative.findIndex((c) => c >= j);
  return { value: d.members[index]!, index };
}

/** `count` distinct integers from m..M in draw order. */
function distinctInts(rng: Rng, count: number, m: number, M: number): number[] {
  const out: number[] = [];
  while (out.length < count) {
    const v = rng.int(m, M);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** qgen's month index: year 93 + m div 12, month m mod 12 + 1, first day. */
export function qgenMonthStart(m: number): string {
  return `19${93 + Math.floor(m / 12)}-${pad2((m % 12) + 1)}-01`;
}

/** Q11's FRACTION: 0.0001 / SF, formatted %11.10f. */
export function q11Fraction(scaleFactor: number): string {
  return (0.0001 / scaleFactor).toFixed(10).padStart(11, ' ').trim();
}

const brand = (rng: Rng) => `Brand#${rng.int(1, 5)}${rng.int(1, 5)}`;
const yearStart = (rng: Rng) => `${rng.int(1993, 1997)}-01-01`;
const pick = (rng: Rng, d: TprochDist) => pickWeighted(rng, d).value;

/** Two different members of a distribution. */
function twoDistinct(rng: Rng, d: TprochDist): [string, string] {
  const a = pick(rng, d);
  let b = pick(rng, d);
  while (b === a) b = pick(rng, d);
  return [a, b];
}

type Drawer = (rng: Rng, sf: number) => TprochParamValues;

/** Random substitution values per query (hammerdb.md §10.3, TPC-H clause 2.4). */
const DRAW: Record<number, Drawer> = {
  1: (r) => ({ delta: String(r.int(60, 120)) }),
  2: (r) => ({ size: String(r.int(1, 50)), type: pick(r, TPROCH_DISTS.p_types).split(' ')[2]!, region: pick(r, TPROCH_DISTS.regions) }),
  3: (r) => ({ segment: pick(r, TPROCH_DISTS.msegmnt), date: `1995-03-${pad2(r.int(1, 31))}` }),
  4: (r) => ({ date: qgenMonthStart(r.int(1, 58)) }),
  5: (r) => ({ region: pick(r, TPROCH_DISTS.regions), date: yearStart(r) }),
  6: (r) => ({ date: yearStart(r), discount: `0.0${r.int(2, 9)}`, quantity: String(r.int(24, 25)) }),
  7: (r) => {
    const [nation1, nation2] = twoDistinct(r, TPROCH_DISTS.nations2);
    return { nation1, nation2 };
  },
  8: (r) => {
    const n = pickWeighted(r, TPROCH_DISTS.nations2);
    return { nation: n.value, region: TPROCH_DISTS.regions.members[TPROCH_NATION_REGION[n.index]!]!, type: pick(r, TPROCH_DISTS.p_types) };
  },
  9: (r) => ({ color: pick(r, TPROCH_DISTS.colors) }),
  10: (r) => ({ date: qgenMonthStart(r.int(1, 24)) }),
  11: (r, sf) => ({ nation: pick(r, TPROCH_DISTS.nations2), fraction: q11Fraction(sf) }),
  12: (r) => {
    const [shipmode1, shipmode2] = twoDistinct(r, TPROCH_DISTS.smode);
    return { shipmode1, shipmode2, date: yearStart(r) };
  },
  13: (r) => ({ word1: pick(r, TPROCH_DISTS.Q13a), word2: pick(r, TPROCH_DISTS.Q13b) }),
  14: (r) => ({ date: qgenMonthStart(r.int(1, 60)) }),
  15: (r) => ({ date: qgenMonthStart(r.int(1, 58)) }),
  16: (r) => {
    const v: TprochParamValues = { brand: brand(r), type: pick(r, TPROCH_DISTS.p_types).split(' ').slice(0, 2).join(' ') };
    distinctInts(r, 8, 1, 50).forEach((s, i) => (v[`size${i + 1}`] = String(s)));
    return v;
  },
  17: (r) => ({ brand: brand(r), container: pick(r, TPROCH_DISTS.p_cntr) }),
  18: (r) => ({ quantity: String(r.int(312, 315)) }),
  19: (r) => ({
    brand1: brand(r),
    brand2: brand(r),
    brand3: brand(r),
    quantity1: String(r.int(1, 10)),
    quantity2: String(r.int(10, 20)),
    quantity3: String(r.int(20, 30)),
  }),
  20: (r) => ({ color: pick(r, TPROCH_DISTS.colors), date: yearStart(r), nation: pick(r, TPROCH_DISTS.nations2) }),
  21: (r) => ({ nation: pick(r, TPROCH_DISTS.nations2) }),
  22: (r) => Object.fromEntries(distinctInts(r, 7, 10, 34).map((c, i) => [`i${i + 1}`, String(c)])),
};

/** The TPC-H qualification (validation) values of each query (specification clause 2.4, "Validation"). */
export const TPROCH_VALIDATION_PARAMS: Readonly<Record<number, TprochParamValues>> = {
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
  11: { nation: 'GERMANY' },
  12: { shipmode1: 'MAIL', shipmode2: 'SHIP', date: '1994-01-01' },
  13: { word1: 'special', word2: 'requests' },
  14: { date: '1995-09-01' },
  15: { date: '1996-01-01' },
  16: { brand: 'Brand#45', type: 'MEDIUM POLISHED', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9' },
  17: { brand: 'Brand#23', container: 'MED BOX' },
  18: { quantity: '300' },
  19: { brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20' },
  20: { color: 'forest', date: '1994-01-01', nation: 'CANADA' },
  21: { nation: 'SAUDI ARABIA' },
  22: { i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17' },
};

/**
 * The substitution values of all 22 queries for one stream's query set,
 * drawn in query order 1..22 from a generator keyed by (seed, stream, set),
 * so a job's parameters are reproducible. Every query's values include
 * `stream` (Q15's view name).
 */
export function tprochQueryParams(o: TprochParamsInput): Record<number, TprochParamValues> {
  if (!(o.scaleFactor > 0)) throw new RangeError(`scale factor must be > 0, got ${o.scaleFactor}`);
  const rng = new Rng(streamKey(o.seed, PARAMS_TAG, o.stream, o.set));
  const out: Record<number, TprochParamValues> = {};
  for (let q = 1; q <= 22; q++) {
    const drawn = DRAW[q]!(rng, o.scaleFactor);
    const values = o.validation ? { ...TPROCH_VALIDATION_PARAMS[q]! } : drawn;
    if (q === 11) values['fraction'] = q11Fraction(o.scaleFactor);
    values['stream'] = String(o.stream);
    for (const name of TPROCH_QUERY_PARAMS[q]!) if (values[name] === undefined) throw new Error(`Q${q} parameter ${name} has no value`);
    out[q] = values;
  }
  return out;
}

/**
 * A query ready for a stream: the engine's named statements of queries.sql
 * (`q1`..`q22`; Q15 optionally `q15_view` and `q15_drop` around `q15`)
 * with the values filled in. Only the query's select is timed.
 */
export function tprochQueryText(statements: Readonly<Record<string, string>>, query: number, values: TprochParamValues): TprochQueryText {
  const get = (name: string) => {
    const s = statements[name];
    if (s === undefined) throw new Error(`queries.sql has no statement named "${name}"`);
    return fillQuery(s, values);
  };
  const out: TprochQueryText = { query, statements: [] };
  if (query === 15 && statements['q15_view'] !== undefined) out.statements.push({ sql: get('q15_view'), timed: false });
  out.statements.push({ sql: get(`q${query}`), timed: true });
  if (query === 15 && statements['q15_drop'] !== undefined) out.statements.push({ sql: get('q15_drop'), timed: false });
  return out;
}
