/**
 * pgbench's expression values: 64-bit integers (bigint here, so hashes and
 * overflow behave as in pgbench), doubles, booleans and NULL. Variables also
 * hold strings (from \gset), converted on use.
 */
export type ScriptValue = bigint | number | boolean | null | string;

export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;

/** Throws (via `fail`) when `v` is outside int64, as pgbench's "bigint out of range". */
export function checkInt(v: bigint, fail: (m: string) => never): bigint {
  if (v < INT64_MIN || v > INT64_MAX) fail('bigint out of range');
  return v;
}

const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const DOUBLE_TEXT = /^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)\s*$/i;

/** A variable's string as pgbench reads it in an expression: integer if it is one, else double. */
export function fromText(s: string, fail: (m: string) => never): bigint | number {
  if (INT_TEXT.test(s)) return checkInt(BigInt(s.trim()), fail);
  if (DOUBLE_TEXT.test(s)) {
    const t = s.trim().toLowerCase().replace(/^([+-]?)inf(inity)?$/, '$1Infinity');
    return t === 'nan' || t === '+nan' || t === '-nan' ? NaN : Number(t);
  }
  return fail(`malformed variable value "${s}": not an integer or a double`);
}

/** A value as text (for \sleep arguments, debug lines, bound parameters of big integers). */
export function valueText(v: ScriptValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e15 ? v.toFixed(1) : String(v);
  return String(v);
}

/** What goes to the driver as a bound parameter: numbers stay numbers where exact, big integers as text. */
export type BindValue = number | string | boolean | null;

const BIND_MAX = 2n ** 53n;
const BIND_MIN = -BIND_MAX;

export function bindValue(v: ScriptValue): BindValue {
  if (typeof v === 'bigint') return v >= BIND_MIN && v <= BIND_MAX ? Number(v) : v.toString();
  return v;
}
