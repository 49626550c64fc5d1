import { TPROCH_TABLES, type CheckItem, type TprochTable } from '@sledge/protocol';

export interface TprochCheckFacts {
  /** Tables found (rowCounts lacks missing ones). */
  rowCounts: Partial<Record<TprochTable, number>>;
}

/** Row counts a check accepts: every table exactly as built, lineitem at least 0.99 of it (HammerDB's floor). */
export function tprochMinimumRows(expected: Readonly<Record<TprochTable, number>>): Record<TprochTable, number> {
  return { ...expected, lineitem: Math.floor(expected.lineitem * 0.99) };
}

/** count(supplier) / 10000: the SF a schema was built with (HammerDB's check). */
export const schemaScaleFactor = (suppliers: number): number => suppliers / 10000;

/**
 * check_tpch (hammerdb.md §10.2): the eight tables exist, their row counts
 * (exact for every table; lineitem >= 0.99 × expected, HammerDB's floor,
 * since refresh runs move it), and count(supplier)/10000 = SF. `expected` are
 * the rows of the SF checked; `sf` that SF.
 */
export function evaluateTprochCheck(facts: TprochCheckFacts, sf: number, expected: Readonly<Record<TprochTable, number>>): CheckItem[] {
  const items: CheckItem[] = [];
  const add = (name: string, ok: boolean, detail: string) => items.push({ name, ok, detail });
  const missing = TPROCH_TABLES.filter((t) => facts.rowCounts[t] === undefined);
  add('all 8 tables exist', missing.length === 0, missing.length ? `missing: ${missing.join(', ')}` : TPROCH_TABLES.join(', '));
  if (missing.length) return items;
  const counts = facts.rowCounts as Record<TprochTable, number>;
  const min = tprochMinimumRows(expected);
  const bad = TPROCH_TABLES.filter((t) => (t === 'lineitem' || t === 'orders' ? counts[t] < min[t] : counts[t] !== expected[t]));
  add(
    'row counts',
    bad.length === 0,
    bad.length
      ? bad.map((t) => `${t} has ${counts[t]} rows, expected ${t === 'lineitem' ? `>= ${min[t]}` : expected[t]}`).join('; ')
      : TPROCH_TABLES.map((t) => `${t} ${counts[t]}`).join(', '),
  );
  const got = schemaScaleFactor(counts.supplier);
  add('count(supplier)/10000 equals the scale factor', Math.abs(got - sf) < 1e-9, `count(supplier)/10000 = ${got}, scale factor ${sf}`);
  return items;
}
