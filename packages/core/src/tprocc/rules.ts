import type { Rng } from '../random.js';

/**
 * TPC-C random rules as HammerDB applies them (hammerdb.md §5.2).
 * Every function consumes the generator in a fixed order; worker-native
 * mirrors that order exactly.
 */

const ALPHA = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHA_CODES = Array.from(ALPHA, (c) => c.charCodeAt(0));

/** NURand(A, x, y, C) = (((R(0,A) | R(x,y)) + C) mod (y−x+1)) + x */
export function nurand(rng: Rng, A: number, x: number, y: number, C: number): number {
  return (((rng.int(0, A) | rng.int(x, y)) + C) % (y - x + 1)) + x;
}

/** a-string of uniform length in [min, max] over 62 alphanumerics. */
export function alphaString(rng: Rng, min: number, max: number): string {
  const len = rng.int(min, max);
  return alphaFixed(rng, len);
}

const buf: number[] = [];
export function alphaFixed(rng: Rng, len: number): string {
  buf.length = len;
  for (let i = 0; i < len; i++) buf[i] = ALPHA_CODES[Math.floor(rng.random() * 62)]!;
  return String.fromCharCode.apply(null, buf);
}

const SYLLABLES = ['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'] as const;
/** C_LAST from a number 0..999: one syllable per digit (hundreds, tens, units). */
export function lastName(n: number): string {
  return SYLLABLES[Math.floor(n / 100) % 10]! + SYLLABLES[Math.floor(n / 10) % 10]! + SYLLABLES[n % 10]!;
}

/** Random last name as used at run time and for customers above 1000: NURand(255,0,999,C). */
export function randomLastName(rng: Rng, C: number): string {
  return lastName(nurand(rng, 255, 0, 999, C));
}

/** Left-align the decimal digits of n over a template: zip(42) over "000011111" -> "420011111". */
export function overTemplate(n: number, template: string): string {
  const s = String(n);
  return s.length >= template.length ? s.slice(0, template.length) : s + template.slice(s.length);
}

/** Zip: RandomNumber(0,9999) left-aligned over "000011111". */
export function zip(rng: Rng): string {
  return overTemplate(rng.int(0, 9999), '000011111');
}

/** Phone: two RandomNumber(0,99999999) each left-aligned over "00000000" (16 chars). */
export function phone(rng: Rng): string {
  const a = overTemplate(rng.int(0, 99999999), '00000000');
  const b = overTemplate(rng.int(0, 99999999), '00000000');
  return a + b;
}

/** Mark a data string "original": 8 characters at RandomNumber(0, len−8) become "original". */
export function makeOriginal(rng: Rng, data: string): string {
  const pos = rng.int(0, data.length - 8);
  return data.slice(0, pos) + 'original' + data.slice(pos + 8);
}

/**
 * The "original" set: 10000 positions drawn with RandomNumber(1, n), duplicates
 * allowed (so slightly under 10% distinct), as HammerDB draws them.
 */
export function originalSet(rng: Rng, n: number, draws = 10000): Uint8Array {
  const set = new Uint8Array(n + 1);
  for (let i = 0; i < draws; i++) set[rng.int(1, n)] = 1;
  return set;
}

/** Integer units to a fixed-point decimal string: (1234, 2) -> "12.34", (-1000, 2) -> "-10.00". */
export function decimal(units: number, scale: number): string {
  const neg = units < 0;
  const u = neg ? -units : units;
  const p = 10 ** scale;
  const ip = Math.floor(u / p);
  const fp = String(u - ip * p).padStart(scale, '0');
  return (neg ? '-' : '') + ip + (scale > 0 ? '.' + fp : '');
}

/**
 * Payment and order status by last name (clauses 2.5.2.2, 2.6.2.2): of the n
 * namesakes ordered by c_first, the customer at position ceil(n/2) (1-based),
 * as a 0-based index. For client-side transaction drivers.
 */
export function namesakeIndex(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`namesakeIndex: ${n} namesakes (need at least 1)`);
  return Math.ceil(n / 2) - 1;
}
