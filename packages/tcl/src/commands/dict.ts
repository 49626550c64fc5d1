import { TclError } from '../errors.js';
import type { CallContext, Interp } from '../interp.js';
import { formatList, parseList } from '../lists.js';
import { toInt } from '../numbers.js';
import { loopBody } from './control.js';
import { globMatch } from './strings.js';
import { arity, subcommand } from './util.js';

/** dict: create get set exists keys values for size unset remove replace merge incr lappend append. */

export function toDict(s: string): Map<string, string> {
  const items = parseList(s);
  if (items.length % 2) throw new TclError('missing value to go with key');
  const m = new Map<string, string>();
  for (let i = 0; i < items.length; i += 2) m.set(items[i]!, items[i + 1]!);
  return m;
}

export const fromDict = (m: Map<string, string>): string => formatList([...m].flat());

function get(d: string, keys: readonly string[]): string {
  let cur = d;
  for (const k of keys) {
    const m = toDict(cur);
    if (!m.has(k)) throw new TclError(`key "${k}" not known in dictionary`);
    cur = m.get(k)!;
  }
  return cur;
}

function exists(d: string, keys: readonly string[]): boolean {
  let cur = d;
  for (const k of keys) {
    let m: Map<string, string>;
    try {
      m = toDict(cur);
    } catch {
      return false;
    }
    if (!m.has(k)) return false;
    cur = m.get(k)!;
  }
  return true;
}

function setIn(d: string, keys: readonly string[], value: string): string {
  const m = toDict(d);
  const [k, ...rest] = keys;
  m.set(k!, rest.length ? setIn(m.get(k!) ?? '', rest, value) : value);
  return fromDict(m);
}

function unsetIn(d: string, keys: readonly string[]): string {
  const m = toDict(d);
  const [k, ...rest] = keys;
  if (!rest.length) m.delete(k!);
  else if (m.has(k!)) m.set(k!, unsetIn(m.get(k!)!, rest));
  return fromDict(m);
}

/** dict set/unset/incr/lappend/append on a variable. */
function update(interp: Interp, name: string, fn: (d: string) => string): string {
  return interp.setVar(name, fn(interp.exists(name) ? interp.getVar(name) : ''));
}

async function dictFor(args: string[], ctx: CallContext): Promise<string> {
  if (args.length !== 5) throw new TclError('wrong # args: should be "dict for {keyVarName valueVarName} dictionary script"');
  const vars = parseList(args[2]!);
  if (vars.length !== 2) throw new TclError('must have exactly two variable names');
  for (const [k, v] of toDict(args[3]!)) {
    ctx.interp.setVar(vars[0]!, k);
    ctx.interp.setVar(vars[1]!, v);
    if (!(await loopBody(ctx.interp, args[4]!, ctx.argLines[4]!))) break;
  }
  return '';
}

async function dict(args: string[], ctx: CallContext): Promise<string> {
  arity(args, 1, Infinity, 'dict subcommand ?arg ...?');
  const { interp } = ctx;
  const [, given, a2, ...rest] = args;
  const sub = subcommand(given, ['append', 'create', 'exists', 'for', 'get', 'incr', 'keys', 'lappend', 'merge', 'remove', 'replace', 'set', 'size', 'unset', 'values']);
  const need = (min: number, u: string) => {
    if (args.length - 2 < min) throw new TclError(`wrong # args: should be "dict ${sub} ${u}"`);
  };
  switch (sub) {
    case 'create':
      if ((args.length - 2) % 2) throw new TclError('wrong # args: should be "dict create ?key value ...?"');
      return fromDict(toDict(formatList(args.slice(2))));
    case 'get':
      need(1, 'dictionary ?key ...?');
      return get(a2!, rest);
    case 'exists':
      need(2, 'dictionary key ?key ...?');
      return exists(a2!, rest) ? '1' : '0';
    case 'set':
      need(3, 'dictVarName key ?key ...? value');
      return update(interp, a2!, (d) => setIn(d, rest.slice(0, -1), rest.at(-1)!));
    case 'unset':
      need(2, 'dictVarName key ?key ...?');
      return update(interp, a2!, (d) => unsetIn(d, rest));
    case 'keys':
    case 'values': {
      need(1, 'dictionary ?globPattern?');
      const m = toDict(a2!);
      const pat = rest[0];
      const entries = [...m].filter(([k, v]) => pat === undefined || globMatch(pat, sub === 'keys' ? k : v));
      return formatList(entries.map(([k, v]) => (sub === 'keys' ? k : v)));
    }
    case 'size':
      need(1, 'dictionary');
      return String(toDict(a2!).size);
    case 'for':
      return dictFor(args, ctx);
    case 'remove': {
      need(1, 'dictionary ?key ...?');
      const m = toDict(a2!);
      for (const k of rest) m.delete(k);
      return fromDict(m);
    }
    case 'replace': {
      need(1, 'dictionary ?key value ...?');
      const m = toDict(a2!);
      for (const [k, v] of toDict(formatList(rest))) m.set(k, v);
      return fromDict(m);
    }
    case 'merge': {
      const m = new Map<string, string>();
      for (const d of args.slice(2)) for (const [k, v] of toDict(d)) m.set(k, v);
      return fromDict(m);
    }
    case 'incr':
      need(2, 'dictVarName key ?increment?');
      return update(interp, a2!, (d) => {
        const m = toDict(d);
        m.set(rest[0]!, String((m.has(rest[0]!) ? toInt(m.get(rest[0]!)!) : 0n) + (rest[1] === undefined ? 1n : toInt(rest[1]))));
        return fromDict(m);
      });
    case 'lappend':
    case 'append':
      need(2, 'dictVarName key ?value ...?');
      return update(interp, a2!, (d) => {
        const m = toDict(d);
        const cur = m.get(rest[0]!) ?? '';
        m.set(rest[0]!, sub === 'append' ? cur + rest.slice(1).join('') : formatList([...parseList(cur), ...rest.slice(1)]));
        return fromDict(m);
      });
  }
  return '';
}

export function registerDict(interp: Interp): void {
  interp.register('dict', dict);
}
