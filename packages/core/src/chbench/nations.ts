/**
 * CH-benCHmark's REGION and NATION contents (docs/chbench.md, "Rules").
 *
 * A customer's nation is the first character of c_state, and TPC-C draws
 * c_state from 62 alphanumerics (0-9, A-Z, a-z), so NATION has 62 rows whose
 * keys are those characters' ASCII codes: `ascii(substr(c_state, 1, 1)) =
 * n_nationkey` joins them with no arithmetic. Names and regions are the
 * published CH-benCHmark data (the queries compare 'Germany', 'Cambodia',
 * 'Europe' and 'Europ%'), including its spelling "Finnland".
 */

export interface ChbenchRegion {
  readonly key: number;
  readonly name: string;
}

export interface ChbenchNation {
  /** The c_state character this nation stands for. */
  readonly char: string;
  /** n_nationkey: the character's ASCII code. */
  readonly key: number;
  readonly name: string;
  /** n_regionkey. */
  readonly region: number;
}

export const CHBENCH_REGIONS: readonly ChbenchRegion[] = [
  { key: 1, name: 'Africa' },
  { key: 2, name: 'America' },
  { key: 3, name: 'Asia' },
  { key: 4, name: 'Australia' },
  { key: 5, name: 'Europe' },
];

/** [c_state character, n_name, n_regionkey], in key order. */
const NATIONS: ReadonlyArray<readonly [string, string, number]> = [
  ['0', 'Australia', 4],
  ['1', 'Belgium', 5],
  ['2', 'Cameroon', 1],
  ['3', 'Denmark', 5],
  ['4', 'Ecuador', 2],
  ['5', 'France', 5],
  ['6', 'Germany', 5],
  ['7', 'Hungary', 5],
  ['8', 'Italy', 5],
  ['9', 'Japan', 3],
  ['A', 'Kenya', 1],
  ['B', 'Lithuania', 5],
  ['C', 'Mexico', 2],
  ['D', 'Netherlands', 5],
  ['E', 'Oman', 1],
  ['F', 'Portugal', 5],
  ['G', 'Qatar', 1],
  ['H', 'Rwanda', 1],
  ['I', 'Serbia', 5],
  ['J', 'Togo', 1],
  ['K', 'United States', 2],
  ['L', 'Vietnam', 3],
  ['M', 'Singapore', 3],
  ['N', 'Cambodia', 3],
  ['O', 'Yemen', 1],
  ['P', 'Zimbabwe', 1],
  ['Q', 'Argentina', 2],
  ['R', 'Bolivia', 2],
  ['S', 'Canada', 2],
  ['T', 'Dominican Republic', 2],
  ['U', 'Egypt', 1],
  ['V', 'Finnland', 5],
  ['W', 'Ghana', 1],
  ['X', 'Haiti', 2],
  ['Y', 'India', 3],
  ['Z', 'Jamaica', 4],
  ['a', 'Kazakhstan', 3],
  ['b', 'Luxembourg', 5],
  ['c', 'Morocco', 1],
  ['d', 'Norway', 5],
  ['e', 'Poland', 5],
  ['f', 'Peru', 2],
  ['g', 'Nicaragua', 2],
  ['h', 'Romania', 5],
  ['i', 'South Africa', 1],
  ['j', 'Thailand', 3],
  ['k', 'United Kingdom', 5],
  ['l', 'Venezuela', 2],
  ['m', 'Liechtenstein', 5],
  ['n', 'Austria', 5],
  ['o', 'Laos', 3],
  ['p', 'Zambia', 1],
  ['q', 'Switzerland', 5],
  ['r', 'China', 3],
  ['s', 'Papua New Guinea', 4],
  ['t', 'East Timor', 4],
  ['u', 'Bulgaria', 5],
  ['v', 'Brazil', 2],
  ['w', 'Albania', 5],
  ['x', 'Andorra', 5],
  ['y', 'Belize', 2],
  ['z', 'Botswana', 1],
];

export const CHBENCH_NATIONS: readonly ChbenchNation[] = NATIONS.map(([char, name, region]) => ({
  char,
  key: char.charCodeAt(0),
  name,
  region,
}));

/** SUPPLIER's fixed size: stock (w, i) is supplied by supplier (w * i) mod 10000. */
export const CHBENCH_SUPPLIERS = 10000;

/** su_suppkey of the supplier of stock row (s_w_id, s_i_id): (s_w_id * s_i_id) mod 10000. */
export function chbenchSupplierOf(w: number, i: number): number {
  return (w * i) % CHBENCH_SUPPLIERS;
}

/** n_nationkey of a customer (or district, warehouse) from its state: the ASCII code of its first character. */
export function chbenchNationOf(state: string): number {
  return state.charCodeAt(0);
}
