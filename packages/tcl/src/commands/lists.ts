import { TclError } from '../errors.js';
import type { CallContext, Interp } from '../interp.js';
import { formatList, parseIndex, parseList } from '../lists.js';
import { parseNumber, toDouble, toInt } from '../numbers.js';
import { globMatch } from './strings.js';
import { arity } from './util.js';

/** Lists: list lindex llength lappend lrange lsearch lsort linsert lreplace lreverse lassign lrepeat lset join split concat. */

function lindex(args: string[]): string {
  arity(args, 1, Infinity, 'lindex list ?index ...?');
  let value = args[1]!;
  const indices = args.length === 3 ? parseList(args[2]!) : args.slice(2);
  for (const ix of indices) {
    const items = parseList(value);
    const i = parseIndex(ix, items.length);
    value = i >= 0 && i < items.length ? items[i]! : '';
  }
  return value;
}

function lrange(args: string[]): string {
  arity(args, 3, 3, 'lrange list first last');
  const items = parseList(args[1]!);
  const a = Math.max(0, parseIndex(args[2]!, items.length));
  const b = Math.min(items.length - 1, parseIndex(args[3]!, items.length));
  return formatList(a > b ? [] : items.slice(a, b + 1));
}

function lappend(args: string[], { interp }: CallContext): string {
  arity(args, 1, Infinity, 'lappend varName ?value ...?');
  const cur = interp.exists(args[1]!) ? parseList(interp.getVar(args[1]!)) : [];
  return interp.setVar(args[1]!, formatList([...cur, ...args.slice(2)]));
}

type Cmp = (a: string, b: string) => number;

function dictionaryCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (/^\d/.test(x) && /^\d/.test(y)) {
      const d = Number(x) - Number(y);
      if (d) return d;
    } else {
      const d = x.toLowerCase().localeCompare(y.toLowerCase());
      if (d) return d;
    }
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

function lsort(args: string[]): string {
  arity(args, 1, Infinity, 'lsort ?-option value ...? list');
  let cmp: Cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  let dir = 1;
  let unique = false;
  let index: string | undefined;
  const opts = args.slice(1, -1);
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i];
    if (o === '-integer') cmp = (a, b) => Number(toInt(a) - toInt(b));
    else if (o === '-real') cmp = (a, b) => toDouble(parseNumber(a) ?? { k: 'dbl', v: NaN }) - toDouble(parseNumber(b) ?? { k: 'dbl', v: NaN });
    else if (o === '-dictionary') cmp = dictionaryCompare;
    else if (o === '-nocase') cmp = (a, b) => a.toLowerCase().localeCompare(b.toLowerCase());
    else if (o === '-decreasing') dir = -1;
    else if (o === '-increasing') dir = 1;
    else if (o === '-unique') unique = true;
    else if (o === '-index') index = opts[++i];
    else if (o !== '-ascii') throw new TclError(`bad option "${o}": must be -ascii, -decreasing, -dictionary, -increasing, -index, -integer, -nocase, -real, or -unique`);
  }
  const key = (s: string) => (index === undefined ? s : lindex(['lindex', s, index]));
  let items = parseList(args[args.length - 1]!).sort((a, b) => dir * cmp(key(a), key(b)));
  if (unique) items = items.filter((x, i) => i === items.length - 1 || cmp(key(x), key(items[i + 1]!)) !== 0);
  return formatList(items);
}

function lsearch(args: string[]): string {
  arity(args, 2, Infinity, 'lsearch ?-option value ...? list pattern');
  const opts = args.slice(1, -2);
  const items = parseList(args[args.length - 2]!);
  let pattern = args[args.length - 1]!;
  let mode = '-glob';
  const has = (o: string) => opts.includes(o);
  for (const o of opts) if (['-exact', '-glob', '-regexp', '-integer', '-real'].includes(o)) mode = o;
  const nocase = has('-nocase');
  if (nocase) pattern = pattern.toLowerCase();
  const startAt = opts.indexOf('-start');
  const start = startAt >= 0 ? parseIndex(opts[startAt + 1]!, items.length) : 0;
  const test = (raw: string) => {
    const x = nocase ? raw.toLowerCase() : raw;
    const hit = mode === '-exact' ? x === pattern : mode === '-glob' ? globMatch(pattern, x) : mode === '-regexp' ? new RegExp(pattern, nocase ? 'i' : '').test(raw) : parseNumber(x) !== undefined && toDouble(parseNumber(x)!) === toDouble(parseNumber(pattern) ?? { k: 'dbl', v: NaN });
    return has('-not') ? !hit : hit;
  };
  const found: number[] = [];
  for (let i = Math.max(0, start); i < items.length; i++) {
    if (test(items[i]!)) {
      found.push(i);
      if (!has('-all')) break;
    }
  }
  if (has('-inline')) return has('-all') ? formatList(found.map((i) => items[i]!)) : found.length ? items[found[0]!]! : '';
  return has('-all') ? found.join(' ') : String(found[0] ?? -1);
}

function lreplace(args: string[]): string {
  arity(args, 3, Infinity, 'lreplace list first last ?element ...?');
  const items = parseList(args[1]!);
  const a = Math.max(0, parseIndex(args[2]!, items.length));
  const b = parseIndex(args[3]!, items.length);
  items.splice(a, Math.max(0, b - a + 1), ...args.slice(4));
  return formatList(items);
}

function linsert(args: string[]): string {
  arity(args, 2, Infinity, 'linsert list index ?element ...?');
  const items = parseList(args[1]!);
  const i = args[2] === 'end' ? items.length : Math.min(items.length, Math.max(0, parseIndex(args[2]!, items.length + 1)));
  items.splice(i, 0, ...args.slice(3));
  return formatList(items);
}

function split(args: string[]): string {
  arity(args, 1, 2, 'split string ?splitChars?');
  const s = args[1]!;
  const chars = args[2] ?? ' \t\n\r';
  if (chars === '') return formatList([...s]);
  const out: string[] = [];
  let cur = '';
  for (const c of s) {
    if (chars.includes(c)) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return formatList(out);
}

function lset(args: string[], { interp }: CallContext): string {
  arity(args, 2, Infinity, 'lset listVar ?index? ?index ...? value');
  const value = args[args.length - 1]!;
  const indices = args.length === 4 ? parseList(args[2]!) : args.slice(2, -1);
  const setIn = (list: string, ix: string[]): string => {
    if (!ix.length) return value;
    const items = parseList(list);
    const i = parseIndex(ix[0]!, items.length);
    if (i < 0 || i > items.length) throw new TclError('list index out of range');
    items[i] = setIn(items[i] ?? '', ix.slice(1));
    return formatList(items);
  };
  return interp.setVar(args[1]!, setIn(interp.getVar(args[1]!), indices));
}

export function registerLists(interp: Interp): void {
  interp.register('list', (a) => formatList(a.slice(1)));
  interp.register('llength', (a) => {
    arity(a, 1, 1, 'llength list');
    return String(parseList(a[1]!).length);
  });
  interp.register('lindex', lindex);
  interp.register('lrange', lrange);
  interp.register('lappend', lappend);
  interp.register('lsort', lsort);
  interp.register('lsearch', lsearch);
  interp.register('lreplace', lreplace);
  interp.register('linsert', linsert);
  interp.register('lset', lset);
  interp.register('lreverse', (a) => formatList(parseList(a[1] ?? '').reverse()));
  interp.register('lrepeat', (a) => formatList(Array.from({ length: Number(toInt(a[1] ?? '0')) }, () => a.slice(2)).flat()));
  interp.register('lassign', (a, c) => {
    arity(a, 1, Infinity, 'lassign list ?varName ...?');
    const items = parseList(a[1]!);
    a.slice(2).forEach((v, i) => c.interp.setVar(v, items[i] ?? ''));
    return formatList(items.slice(a.length - 2));
  });
  interp.register('join', (a) => {
    arity(a, 1, 2, 'join list ?joinString?');
    return parseList(a[1]!).join(a[2] ?? ' ');
  });
  interp.register('split', split);
  interp.register('concat', (a) =>
    a
      .slice(1)
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .join(' '),
  );
}
