import { TclError } from '../errors.js';
import type { CallContext, Interp } from '../interp.js';
import { formatList, parseIndex, parseList } from '../lists.js';
import { parseNumber, toInt } from '../numbers.js';
import { formatCmd } from '../format.js';
import { arity, options, subcommand } from './util.js';

/** Strings: string (subcommands), format, regexp, regsub. */

/** Tcl's glob match: * ? [chars] and backslash escapes. */
export function globMatch(pattern: string, s: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        re += `[${pattern.slice(i + 1, close).replace(/\\/g, '\\\\').replace(/^!/, '\\!')}]`;
        i = close;
      }
    } else if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`.replace(/\\([A-Za-z0-9])/, '$1');
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's').test(s);
}

const trimSet = (chars: string | undefined) => (chars === undefined ? ' \t\n\r\v\f\0' : chars);
function trimLeft(s: string, chars: string): string {
  let i = 0;
  while (i < s.length && chars.includes(s[i]!)) i++;
  return s.slice(i);
}
function trimRight(s: string, chars: string): string {
  let j = s.length;
  while (j > 0 && chars.includes(s[j - 1]!)) j--;
  return s.slice(0, j);
}

const CLASSES: Record<string, (s: string) => boolean> = {
  integer: (s) => parseNumber(s)?.k === 'int',
  wide: (s) => parseNumber(s)?.k === 'int',
  entier: (s) => parseNumber(s)?.k === 'int',
  double: (s) => parseNumber(s) !== undefined,
  boolean: (s) => /^(0|1|true|false|yes|no|on|off)$/i.test(s.trim()),
  true: (s) => /^(1|true|yes|on)$/i.test(s.trim()),
  false: (s) => /^(0|false|no|off)$/i.test(s.trim()),
  digit: (s) => /^\d+$/.test(s),
  alpha: (s) => /^[A-Za-z]+$/.test(s),
  alnum: (s) => /^[A-Za-z0-9]+$/.test(s),
  space: (s) => /^\s+$/.test(s),
  upper: (s) => /^[A-Z]+$/.test(s),
  lower: (s) => /^[a-z]+$/.test(s),
  xdigit: (s) => /^[0-9A-Fa-f]+$/.test(s),
  ascii: (s) => [...s].every((c) => c.charCodeAt(0) < 128),
  list: (s) => {
    try {
      parseList(s);
      return true;
    } catch {
      return false;
    }
  },
};

function stringIs(args: string[]): string {
  const cls = args[2];
  const { opts, rest } = options(args, 3, ['-strict'], ['-failindex']);
  const s = rest[0];
  if (cls === undefined || s === undefined || rest.length !== 1) throw new TclError('wrong # args: should be "string is class ?-strict? ?-failindex var? str"');
  const test = CLASSES[cls];
  if (!test) throw new TclError(`bad class "${cls}": must be ${Object.keys(CLASSES).join(', ')}`);
  if (s === '') return opts.has('-strict') ? '0' : '1';
  return test(s) ? '1' : '0';
}

function compare(args: string[], equal: boolean): string {
  const { opts, rest } = options(args, 2, ['-nocase'], ['-length']);
  if (rest.length !== 2) throw new TclError(`wrong # args: should be "string ${equal ? 'equal' : 'compare'} ?-nocase? ?-length int? string1 string2"`);
  let [a, b] = rest as [string, string];
  if (opts.has('-nocase')) [a, b] = [a.toLowerCase(), b.toLowerCase()];
  const len = opts.get('-length');
  if (len !== undefined && Number(len) >= 0) [a, b] = [a.slice(0, Number(len)), b.slice(0, Number(len))];
  if (equal) return a === b ? '1' : '0';
  return a < b ? '-1' : a > b ? '1' : '0';
}

function map(args: string[]): string {
  const { opts, rest } = options(args, 2, ['-nocase']);
  if (rest.length !== 2) throw new TclError('wrong # args: should be "string map ?-nocase? charMap string"');
  const pairs = parseList(rest[0]!);
  if (pairs.length % 2) throw new TclError('char map list unbalanced');
  const s = rest[1]!;
  const nocase = opts.has('-nocase');
  let out = '';
  outer: for (let i = 0; i < s.length; ) {
    for (let k = 0; k < pairs.length; k += 2) {
      const from = pairs[k]!;
      if (from === '') continue;
      const here = s.slice(i, i + from.length);
      if (nocase ? here.toLowerCase() === from.toLowerCase() : here === from) {
        out += pairs[k + 1];
        i += from.length;
        continue outer;
      }
    }
    out += s[i++];
  }
  return out;
}

function stringCmd(args: string[]): string {
  arity(args, 1, Infinity, 'string subcommand ?arg ...?');
  const sub = subcommand(args[1], ['length', 'index', 'range', 'tolower', 'toupper', 'totitle', 'trim', 'trimleft', 'trimright', 'equal', 'compare', 'match', 'first', 'last', 'map', 'repeat', 'reverse', 'cat', 'is', 'replace']);
  const s = args[2] ?? '';
  const need = (min: number, max: number, u: string) => arity(args.slice(1), min, max, `string ${sub} ${u}`);
  switch (sub) {
    case 'length':
      need(1, 1, 'string');
      return String([...s].length);
    case 'index': {
      need(2, 2, 'string charIndex');
      const chars = [...s];
      return chars[parseIndex(args[3]!, chars.length)] ?? '';
    }
    case 'range': {
      need(3, 3, 'string first last');
      const chars = [...s];
      const a = Math.max(0, parseIndex(args[3]!, chars.length));
      const b = Math.min(chars.length - 1, parseIndex(args[4]!, chars.length));
      return a > b ? '' : chars.slice(a, b + 1).join('');
    }
    case 'tolower':
      return s.toLowerCase();
    case 'toupper':
      return s.toUpperCase();
    case 'totitle':
      return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
    case 'trim':
      return trimRight(trimLeft(s, trimSet(args[3])), trimSet(args[3]));
    case 'trimleft':
      return trimLeft(s, trimSet(args[3]));
    case 'trimright':
      return trimRight(s, trimSet(args[3]));
    case 'equal':
      return compare(args, true);
    case 'compare':
      return compare(args, false);
    case 'match': {
      const { opts, rest } = options(args, 2, ['-nocase']);
      if (rest.length !== 2) throw new TclError('wrong # args: should be "string match ?-nocase? pattern string"');
      const [p, t] = rest as [string, string];
      return (opts.has('-nocase') ? globMatch(p.toLowerCase(), t.toLowerCase()) : globMatch(p, t)) ? '1' : '0';
    }
    case 'first':
    case 'last': {
      need(2, 3, 'needleString haystackString ?startIndex?');
      const hay = args[3]!;
      if (sub === 'first') return String(hay.indexOf(s, args[4] === undefined ? 0 : Math.max(0, parseIndex(args[4], hay.length))));
      return String(hay.lastIndexOf(s, args[4] === undefined ? Infinity : parseIndex(args[4], hay.length)));
    }
    case 'map':
      return map(args);
    case 'repeat':
      need(2, 2, 'string count');
      return s.repeat(Math.max(0, Number(toInt(args[3]!))));
    case 'reverse':
      return [...s].reverse().join('');
    case 'cat':
      return args.slice(2).join('');
    case 'is':
      return stringIs(args);
    case 'replace': {
      need(3, 4, 'string first last ?string?');
      const a = Math.max(0, parseIndex(args[3]!, s.length));
      const b = Math.min(s.length - 1, parseIndex(args[4]!, s.length));
      return a > b ? s : s.slice(0, a) + (args[5] ?? '') + s.slice(b + 1);
    }
  }
  return '';
}

/** regexp ?-nocase? ?-all? ?-inline? ?--? exp string ?matchVar? ?subMatchVar ...? (JavaScript regular expressions). */
function regexp(args: string[], { interp }: CallContext): string {
  const { opts, rest } = options(args, 1, ['-nocase', '-all', '-inline', '-line', '-expanded']);
  if (rest.length < 2) throw new TclError('wrong # args: should be "regexp ?-option ...? exp string ?matchVar? ?subMatchVar ...?"');
  const [exp, s, ...vars] = rest as [string, string, ...string[]];
  const flags = `${opts.has('-nocase') ? 'i' : ''}${opts.has('-line') ? 'm' : ''}`;
  const re = new RegExp(opts.has('-expanded') ? exp.replace(/\s+|#.*$/gm, '') : exp, `${flags}g`);
  if (opts.has('-all') || opts.has('-inline')) {
    const all = [...s.matchAll(re)];
    const matches = opts.has('-all') ? all : all.slice(0, 1);
    if (opts.has('-inline')) return formatList(matches.flatMap((m) => [...m].map((x) => x ?? '')));
    return String(matches.length);
  }
  const m = new RegExp(re.source, flags).exec(s);
  if (!m) return '0';
  vars.forEach((v, i) => interp.setVar(v, m[i] ?? ''));
  return '1';
}

/** regsub ?-all? ?-nocase? exp string subSpec ?varName? : & and \N in subSpec. */
function regsub(args: string[], { interp }: CallContext): string {
  const { opts, rest } = options(args, 1, ['-all', '-nocase', '-line', '-expanded']);
  if (rest.length < 3 || rest.length > 4) throw new TclError('wrong # args: should be "regsub ?-option ...? exp string subSpec ?varName?"');
  const [exp, s, spec, varName] = rest as [string, string, string, string | undefined];
  const re = new RegExp(exp, `${opts.has('-nocase') ? 'i' : ''}${opts.has('-all') ? 'g' : ''}${opts.has('-line') ? 'm' : ''}`);
  let count = 0;
  const out = s.replace(re, (...m: unknown[]) => {
    count++;
    const groups = m.slice(0, -2) as (string | undefined)[];
    return spec.replace(/\\(\d)|&|\\&|\\\\/g, (t, d: string | undefined) => (t === '&' ? groups[0] ?? '' : t === '\\&' ? '&' : t === '\\\\' ? '\\' : groups[Number(d)] ?? ''));
  });
  if (varName === undefined) return out;
  interp.setVar(varName, out);
  return String(count);
}

export function registerStrings(interp: Interp): void {
  interp.register('string', stringCmd);
  interp.register('format', formatCmd);
  interp.register('regexp', regexp);
  interp.register('regsub', regsub);
}
