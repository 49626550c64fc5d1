/**
 * The substitution parameters of the 22 TPROC-H queries (hammerdb.md §10.3),
 * by name. Every engine's `packages/sql/<engine>/tproch/queries.sql` writes
 * them as `{{name}}` inside the query text (quotes and date arithmetic are the
 * file's); core's params module draws their values, which are only letters,
 * digits, spaces and `.#-` (safe to place inside a quoted literal), and
 * fillQuery puts them in. `stream` (Q15's view name) is always available.
 */
export const TPROCH_QUERY_PARAMS: Readonly<Record<number, readonly string[]>> = {
  1: ['delta'],
  2: ['size', 'type', 'region'],
  3: ['segment', 'date'],
  4: ['date'],
  5: ['region', 'date'],
  6: ['date', 'discount', 'quantity'],
  7: ['nation1', 'nation2'],
  8: ['nation', 'region', 'type'],
  9: ['color'],
  10: ['date'],
  11: ['nation', 'fraction'],
  12: ['shipmode1', 'shipmode2', 'date'],
  13: ['word1', 'word2'],
  14: ['date'],
  15: ['date', 'stream'],
  16: ['brand', 'type', 'size1', 'size2', 'size3', 'size4', 'size5', 'size6', 'size7', 'size8'],
  17: ['brand', 'container'],
  18: ['quantity'],
  19: ['brand1', 'brand2', 'brand3', 'quantity1', 'quantity2', 'quantity3'],
  20: ['color', 'date', 'nation'],
  21: ['nation'],
  22: ['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7'],
};

/** Values of one query's parameters, by name (dates as 'YYYY-MM-DD', numbers as text). */
export type TprochParamValues = Record<string, string>;

const SAFE = /^[A-Za-z0-9 .#-]*$/;

/**
 * The query text with its `{{name}}` parameters filled in. Throws when the
 * text names a parameter the values lack, or a value holds anything but
 * letters, digits, spaces and `.#-`.
 */
export function fillQuery(text: string, values: TprochParamValues): string {
  return text.replace(/\{\{([a-z0-9]+)\}\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`query parameter {{${name}}} has no value`);
    if (!SAFE.test(v)) throw new Error(`query parameter ${name} value ${JSON.stringify(v)} holds characters a query literal may not`);
    return v;
  });
}
