import { TclError } from './errors.js';

/** Tcl's two number kinds: arbitrary-precision integers and doubles. */
export type Num = { k: 'int'; v: bigint } | { k: 'dbl'; v: number };
export type Val = Num | { k: 'str'; v: string };

const INT = /^([+-]?)(0x[0-9a-f]+|0o[0-7]+|0b[01]+|\d+)$/i;
const DBL = /^[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|\d+e[+-]?\d+)$/i;

/** A string as a number when it is one (Tcl allows surrounding whitespace), else undefined. */
export function parseNumber(s: string): Num | undefined {
  const t = s.trim();
  if (t === '') return undefined;
  const m = INT.exec(t);
  if (m) {
    const body = m[2]!.toLowerCase();
    const v = body.startsWith('0o') ? BigInt(`0o${body.slice(2)}`) : BigInt(body);
    return { k: 'int', v: m[1] === '-' ? -v : v };
  }
  if (DBL.test(t)) return { k: 'dbl', v: Number(t) };
  if (/^[+-]?inf(inity)?$/i.test(t)) return { k: 'dbl', v: t.startsWith('-') ? -Infinity : Infinity };
  if (/^nan$/i.test(t)) return { k: 'dbl', v: NaN };
  return undefined;
}

/** A double as Tcl prints it: shortest round-trip digits, ".0" on integral values, exponent past 1e17. */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const exp = Math.floor(Math.log10(Math.abs(x)));
  if (exp < -4 || exp >= 17) {
    const [mant, e] = x.toExponential().split('e') as [string, string];
    return `${mant}e${e.startsWith('-') ? '-' : '+'}${e.replace(/^[+-]/, '').padStart(1, '0')}`;
  }
  const s = String(x);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

export function numToString(n: Val): string {
  if (n.k === 'int') return n.v.toString();
  if (n.k === 'dbl') return formatDouble(n.v);
  return n.v;
}

export const toDouble = (n: Num): number => (n.k === 'int' ? Number(n.v) : n.v);

/** Tcl accepts any unique prefix of the boolean words ("y", "tr", "of" ...). */
const TRUE = /^(t(r(ue?)?)?|y(es?)?|on)$/i;
const FALSE = /^(f(a(l(se?)?)?)?|no?|off?)$/i;
export const BOOLEAN_WORD = /^(t(r(ue?)?)?|y(es?)?|on|f(a(l(se?)?)?)?|no?|off?)$/i;

/** A Tcl boolean: any number (non-zero is true) or true/false/yes/no/on/off. */
export function toBool(s: string): boolean {
  const n = parseNumber(s);
  if (n) return n.k === 'int' ? n.v !== 0n : n.v !== 0;
  const t = s.trim();
  if (TRUE.test(t)) return true;
  if (FALSE.test(t)) return false;
  throw new TclError(`expected boolean value but got "${s}"`);
}

export function isBoolean(s: string): boolean {
  return BOOLEAN_WORD.test(s.trim()) || parseNumber(s) !== undefined;
}

/** An integer argument (incr, lindex counts, format %d ...). */
export function toInt(s: string): bigint {
  const n = parseNumber(s);
  if (n?.k === 'int') return n.v;
  throw new TclError(`expected integer but got "${s}"`);
}
