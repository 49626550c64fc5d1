import { TclError } from './errors.js';
import { formatDouble, parseNumber, toDouble } from './numbers.js';

/** Tcl's `format`: %d %i %u %s %c %f %e %g %x %X %o %b %%, flags - + 0 space #, width and precision (or *). */
const SPEC = /%(?:(\d+)\$)?([-+ 0#]*)(\*|\d+)?(?:\.(\*|\d+))?(?:ll|l|h)?([diuscfeEgGxXob%])/g;

function pad(s: string, width: number, left: boolean, zero: boolean): string {
  if (s.length >= width) return s;
  if (left) return s.padEnd(width);
  if (zero) {
    const sign = /^[+\- ]/.test(s) ? s[0]! : '';
    const prefix = /^[+\- ]?0[xX]/.test(s) ? s.slice(sign.length, sign.length + 2) : '';
    const body = s.slice(sign.length + prefix.length);
    return sign + prefix + body.padStart(width - sign.length - prefix.length, '0');
  }
  return s.padStart(width);
}

function intArg(v: string): bigint {
  const n = parseNumber(v);
  if (!n) throw new TclError(`expected integer but got "${v}"`);
  return n.k === 'int' ? n.v : BigInt(Math.trunc(n.v));
}

function dblArg(v: string): number {
  const n = parseNumber(v);
  if (!n) throw new TclError(`expected floating-point number but got "${v}"`);
  return toDouble(n);
}

function gFormat(x: number, prec: number, alt: boolean): string {
  const p = prec === 0 ? 1 : prec;
  if (x === 0) return alt ? (0).toFixed(p - 1) : '0';
  const exp = Math.floor(Math.log10(Math.abs(x)));
  let s = exp < -4 || exp >= p ? x.toExponential(p - 1) : x.toFixed(Math.max(0, p - 1 - exp));
  if (!alt) s = s.replace(/\.?0+(?=e|$)/, '');
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function convert(conv: string, arg: string, flags: string, prec: number | undefined): string {
  const sign = (neg: boolean, body: string) => (neg ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + body;
  switch (conv) {
    case 'd':
    case 'i':
    case 'u': {
      const n = intArg(arg);
      return sign(n < 0n, (n < 0n ? -n : n).toString());
    }
    case 's':
      return prec === undefined ? arg : arg.slice(0, prec);
    case 'c':
      return String.fromCodePoint(Number(intArg(arg)));
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
      let n = intArg(arg);
      if (n < 0n) n += 1n << 64n;
      const base = conv === 'o' ? 8 : conv === 'b' ? 2 : 16;
      let s = n.toString(base);
      if (conv === 'X') s = s.toUpperCase();
      if (flags.includes('#') && n !== 0n) s = (conv === 'o' ? '0' : conv === 'b' ? '0b' : conv === 'x' ? '0x' : '0X') + s;
      return s;
    }
    case 'f':
    case 'e':
    case 'E':
    case 'g':
    case 'G': {
      const x = dblArg(arg);
      if (!Number.isFinite(x)) return sign(x < 0, Number.isNaN(x) ? 'nan' : 'inf');
      const p = prec ?? 6;
      const a = Math.abs(x);
      let body = conv === 'f' ? a.toFixed(p) : conv === 'e' || conv === 'E' ? a.toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2') : gFormat(a, p, flags.includes('#'));
      if (conv === 'E' || conv === 'G') body = body.toUpperCase();
      return sign(x < 0 || Object.is(x, -0), body);
    }
  }
  return '';
}

export function formatString(fmt: string, values: readonly string[]): string {
  let next = 0;
  const take = () => {
    if (next >= values.length) throw new TclError('not enough arguments for all format specifiers');
    return values[next++]!;
  };
  return fmt.replace(SPEC, (_m, pos: string | undefined, flags: string, w: string | undefined, p: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    if (pos !== undefined) next = Number(pos) - 1;
    let width = w === '*' ? Number(intArg(take())) : w ? Number(w) : 0;
    let left = flags.includes('-');
    if (width < 0) {
      left = true;
      width = -width;
    }
    const prec = p === '*' ? Number(intArg(take())) : p !== undefined ? Number(p) : undefined;
    const text = convert(conv, take(), flags, prec);
    return pad(text, width, left, flags.includes('0') && !left && conv !== 's');
  });
}

export function formatCmd(args: string[]): string {
  if (args.length < 2) throw new TclError('wrong # args: should be "format formatString ?arg ...?"');
  return formatString(args[1]!, args.slice(2));
}

export { formatDouble };
