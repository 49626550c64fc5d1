/**
 * TPROC-H answer check: a query's rows against the TPC-H answer set (SF 1,
 * qualification parameters) by the precision rules of the specification's
 * clause 2.1.3.5. Pure: the answer text comes from @sledge/sql
 * (tprochAnswerText), the rows from the engine.
 *
 * Column kinds:
 * - `text`, `int`, `date`: exact (text compared without surrounding blanks,
 *   as CHAR columns pad; integers as numbers, so '1478493' = 1478493);
 * - `money`: a single column value with cents (an account balance, a price):
 *   exact once rounded to the nearest 1/100;
 * - `sum`: a SUM aggregate: within 100 of the answer;
 * - `avg`: an AVG aggregate or a ratio: rounded to the nearest 1/100, within
 *   1% of the answer (0.99·v ≤ round(r, 2) ≤ 1.01·v).
 * A `sum` or `avg` value inside its tolerance passes, as the specification
 * has it, and the detail says it was not equal at 1/100 (the published Q17
 * answer, 348406.02, is 0.03 from the exact 348406.054...); anything outside
 * a rule fails. Rows are compared in order (every multi-row query has an
 * ORDER BY); rows that match only in another order warn (ties in the ORDER
 * BY keys may order either way).
 */

export type AnswerColumnKind = 'text' | 'int' | 'date' | 'money' | 'sum' | 'avg';

/** Each query's result columns, in select-list order (TPC-H clause 2.4). */
export const TPROCH_ANSWER_COLUMNS: Readonly<Record<number, readonly AnswerColumnKind[]>> = {
  1: ['text', 'text', 'sum', 'sum', 'sum', 'sum', 'avg', 'avg', 'avg', 'int'],
  2: ['money', 'text', 'text', 'int', 'text', 'text', 'text', 'text'],
  3: ['int', 'sum', 'date', 'int'],
  4: ['text', 'int'],
  5: ['text', 'sum'],
  6: ['sum'],
  7: ['text', 'text', 'int', 'sum'],
  8: ['int', 'avg'],
  9: ['text', 'int', 'sum'],
  10: ['int', 'text', 'sum', 'money', 'text', 'text', 'text', 'text'],
  11: ['int', 'sum'],
  12: ['text', 'sum', 'sum'],
  13: ['int', 'int'],
  14: ['avg'],
  15: ['int', 'text', 'text', 'text', 'sum'],
  16: ['text', 'text', 'int', 'int'],
  17: ['sum'],
  18: ['text', 'int', 'int', 'date', 'money', 'sum'],
  19: ['sum'],
  20: ['text', 'text'],
  21: ['text', 'int'],
  22: ['text', 'int', 'sum'],
};

/** An answer file: its column names and rows of cell text. */
export interface AnswerSet {
  columns: string[];
  rows: string[][];
}

/** Parse an answer file (header line, then `|`-separated rows; blanks around cells ignored). */
export function parseAnswerSet(text: string): AnswerSet {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const cells = (l: string) => l.split('|').map((c) => c.trim());
  const [head, ...rows] = lines;
  return { columns: head ? cells(head) : [], rows: rows.map(cells) };
}

export type AnswerStatus = 'pass' | 'warn' | 'fail';

export interface AnswerVerdict {
  query: number;
  status: AnswerStatus;
  /** Why: the first differences, or what matched. */
  detail: string;
}

const MAX_REASONS = 3;

/** A cell as text: engines return numbers, numeric strings, Dates (converted by the drivers to YYYY-MM-DD) or null. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).trim();
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const asNumber = (s: string): number => (s.trim() === '' ? NaN : Number(s));

/** One cell: 'pass', or a warning or failure with its reason. */
function compareCell(kind: AnswerColumnKind, got: unknown, want: string): { status: AnswerStatus; why?: string } {
  const g = cellText(got);
  // The same text passes whatever the kind (NULL = NULL: Q17's average over no rows at a small SF).
  if (g === want) return { status: 'pass' };
  if (kind === 'text' || kind === 'date') return { status: 'fail', why: `"${g}", expected "${want}"` };
  const r = asNumber(g);
  const v = asNumber(want);
  if (!Number.isFinite(r)) return { status: 'fail', why: `"${g}" is not a number (expected ${want})` };
  if (!Number.isFinite(v)) return { status: 'fail', why: `${g}, expected ${want}` };
  if (kind === 'int') return r === v ? { status: 'pass' } : { status: 'fail', why: `${g}, expected exactly ${want}` };
  if (kind === 'money') return round2(r) === round2(v) ? { status: 'pass' } : { status: 'fail', why: `${g}, expected ${want} at 1/100` };
  if (round2(r) === round2(v)) return { status: 'pass' };
  if (kind === 'sum') {
    return Math.abs(r - v) <= 100 ? { status: 'warn', why: `${g} is within 100 of ${want} but not equal at 1/100` } : { status: 'fail', why: `${g} is more than 100 from ${want}` };
  }
  const lo = Math.min(0.99 * v, 1.01 * v);
  const hi = Math.max(0.99 * v, 1.01 * v);
  const x = round2(r);
  return x >= lo && x <= hi ? { status: 'warn', why: `${g} rounds to ${x}, within 1% of ${want} but not equal` } : { status: 'fail', why: `${g} rounds to ${x}, more than 1% from ${want}` };
}

/** One row against the expected one: the worst cell status and the reasons. */
function compareRow(kinds: readonly AnswerColumnKind[], columns: readonly string[], got: readonly unknown[], want: readonly string[]): { status: AnswerStatus; reasons: string[] } {
  if (got.length !== want.length) return { status: 'fail', reasons: [`${got.length} columns, expected ${want.length}`] };
  let status: AnswerStatus = 'pass';
  const reasons: string[] = [];
  for (let i = 0; i < want.length; i++) {
    const c = compareCell(kinds[i] ?? 'text', got[i], want[i]!);
    if (c.status === 'pass') continue;
    if (c.status === 'fail' || status === 'pass') status = c.status;
    reasons.push(`${columns[i] ?? `column ${i + 1}`} ${c.why}`);
  }
  return { status, reasons };
}

const worse = (a: AnswerStatus, b: AnswerStatus): AnswerStatus => (a === 'fail' || b === 'fail' ? 'fail' : a === 'warn' || b === 'warn' ? 'warn' : 'pass');

/** Rows in order; the worst status and the first reasons (row numbers 1-based). */
function compareInOrder(kinds: readonly AnswerColumnKind[], expected: AnswerSet, rows: readonly (readonly unknown[])[]): { status: AnswerStatus; reasons: string[] } {
  let status: AnswerStatus = 'pass';
  const reasons: string[] = [];
  for (let i = 0; i < expected.rows.length; i++) {
    const c = compareRow(kinds, expected.columns, rows[i]!, expected.rows[i]!);
    status = worse(status, c.status);
    if (c.reasons.length && reasons.length < MAX_REASONS) reasons.push(`row ${i + 1}: ${c.reasons.join(', ')}`);
  }
  return { status, reasons };
}

/** The same rows in any order (each expected row matched by a distinct row within the rules): true when they are. */
function sameRowsAnyOrder(kinds: readonly AnswerColumnKind[], expected: AnswerSet, rows: readonly (readonly unknown[])[]): boolean {
  const exactKey = (cells: readonly unknown[]) => kinds.map((k, i) => (k === 'int' ? String(asNumber(cellText(cells[i]))) : k === 'text' || k === 'date' ? cellText(cells[i]) : '')).join('|');
  const pool = new Map<string, (readonly unknown[])[]>();
  for (const r of rows) {
    const k = exactKey(r);
    const list = pool.get(k);
    if (list) list.push(r);
    else pool.set(k, [r]);
  }
  for (const want of expected.rows) {
    const candidates = pool.get(exactKey(want)) ?? [];
    const at = candidates.findIndex((r) => compareRow(kinds, expected.columns, r, want).status !== 'fail');
    if (at < 0) return false;
    candidates.splice(at, 1);
  }
  return true;
}

/**
 * Query `query`'s rows (as the engine returned them) against its expected
 * answer: pass (every value within its rule; the detail names those not
 * equal at 1/100), warn (the right rows in another order) or fail, with the
 * reason.
 */
export function compareTprochAnswer(query: number, expected: AnswerSet, rows: readonly (readonly unknown[])[]): AnswerVerdict {
  const kinds = TPROCH_ANSWER_COLUMNS[query];
  if (!kinds) throw new Error(`no TPC-H answer columns for query ${query}: queries are 1..22`);
  if (rows.length !== expected.rows.length) {
    return { query, status: 'fail', detail: `${rows.length} rows, expected ${expected.rows.length}` };
  }
  const inOrder = compareInOrder(kinds, expected, rows);
  const n = `${rows.length} row${rows.length === 1 ? '' : 's'}`;
  if (inOrder.status === 'pass') return { query, status: 'pass', detail: `${n} match the answer set` };
  if (inOrder.status === 'warn') return { query, status: 'pass', detail: `${n} match the answer set within the specification's tolerance; ${inOrder.reasons.join('; ')}` };
  if (rows.length > 1 && sameRowsAnyOrder(kinds, expected, rows)) {
    return { query, status: 'warn', detail: `${n} match the answer set in another order (ties in the ORDER BY keys?); first differences in order: ${inOrder.reasons.join('; ')}` };
  }
  return { query, status: 'fail', detail: inOrder.reasons.join('; ') };
}

/** Rows as an answer set's text cells (to compare two engines' or two runs' answers with the same rules). */
export function answerSetOf(columns: readonly string[], rows: readonly (readonly unknown[])[]): AnswerSet {
  return { columns: [...columns], rows: rows.map((r) => r.map(cellText)) };
}
