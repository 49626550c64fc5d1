import { TclError } from '../errors.js';
import type { CallContext, Interp } from '../interp.js';
import { formatList, parseList } from '../lists.js';
import { toInt } from '../numbers.js';
import { parseParts } from '../parser.js';
import { unescape } from '../backslash.js';
import { arity } from './util.js';
import { globMatch } from './strings.js';

/** Variables: set unset incr append global upvar uplevel array subst. */

function set(args: string[], { interp }: CallContext): string {
  arity(args, 1, 2, 'set varName ?newValue?');
  return args[2] === undefined ? interp.getVar(args[1]!) : interp.setVar(args[1]!, args[2]);
}

function unset(args: string[], { interp }: CallContext): string {
  let i = 1;
  let complain = true;
  if (args[i] === '-nocomplain') {
    complain = false;
    i++;
  }
  if (args[i] === '--') i++;
  for (; i < args.length; i++) interp.unsetVar(args[i]!, complain);
  return '';
}

function incr(args: string[], { interp }: CallContext): string {
  arity(args, 1, 2, 'incr varName ?increment?');
  const by = args[2] === undefined ? 1n : toInt(args[2]);
  const cur = interp.exists(args[1]!) ? toInt(interp.getVar(args[1]!)) : 0n;
  return interp.setVar(args[1]!, String(cur + by));
}

function append(args: string[], { interp }: CallContext): string {
  arity(args, 1, Infinity, 'append varName ?value ...?');
  const cur = interp.exists(args[1]!) ? interp.getVar(args[1]!) : '';
  return interp.setVar(args[1]!, cur + args.slice(2).join(''));
}

function globalCmd(args: string[], { interp }: CallContext): string {
  if (interp.depth === 0) return '';
  for (const name of args.slice(1)) interp.link(0, `::${name.replace(/^:+/, '')}`, name.replace(/^.*::/, ''));
  return '';
}

function upvar(args: string[], { interp }: CallContext): string {
  let i = 1;
  let level = interp.level('1');
  if (args.length % 2 === 0 && args[1] !== undefined) {
    level = interp.level(args[1]);
    i = 2;
  }
  if (args.length - i < 2) throw new TclError('wrong # args: should be "upvar ?level? otherVar localVar ?otherVar localVar ...?"');
  for (; i + 1 < args.length; i += 2) interp.link(level, args[i]!, args[i + 1]!);
  return '';
}

async function uplevel(args: string[], ctx: CallContext): Promise<string> {
  const { interp } = ctx;
  let i = 1;
  let level = interp.level('1');
  if (args.length > 2 && /^#?\d+$/.test(args[1]!)) {
    level = interp.level(args[1]!);
    i = 2;
  }
  if (i >= args.length) throw new TclError('wrong # args: should be "uplevel ?level? command ?arg ...?"');
  const script = args.length - i === 1 ? args[i]! : args.slice(i).join(' ');
  return interp.atLevel(level, () => interp.eval(script, ctx.argLines[i]));
}

function array(args: string[], { interp }: CallContext): string {
  arity(args, 2, 3, 'array option arrayName ?arg ...?');
  const [, sub, name] = args as [string, string, string];
  const v = interp.varRef(name, sub === 'set');
  const arr = v?.array;
  switch (sub) {
    case 'exists':
      return arr ? '1' : '0';
    case 'size':
      return String(arr?.size ?? 0);
    case 'names':
      return formatList([...(arr?.keys() ?? [])].filter((k) => args[3] === undefined || globMatch(args[3], k)));
    case 'get':
      return formatList([...(arr?.entries() ?? [])].filter(([k]) => args[3] === undefined || globMatch(args[3], k)).flat());
    case 'set': {
      const items = parseList(args[3] ?? '');
      if (items.length % 2) throw new TclError('list must have an even number of elements');
      if (v!.value !== undefined) throw new TclError(`can't array set "${name}": variable isn't array`);
      v!.array ??= new Map();
      for (let k = 0; k < items.length; k += 2) v!.array.set(items[k]!, items[k + 1]!);
      return '';
    }
    case 'unset':
      if (arr) for (const k of [...arr.keys()]) if (args[3] === undefined || globMatch(args[3], k)) arr.delete(k);
      return '';
  }
  throw new TclError(`unknown or ambiguous subcommand "${sub}": must be exists, get, names, set, size, or unset`);
}

async function subst(args: string[], ctx: CallContext): Promise<string> {
  const flags = new Set(args.slice(1, -1));
  const text = args[args.length - 1];
  if (text === undefined) throw new TclError('wrong # args: should be "subst ?-nobackslashes? ?-nocommands? ?-novariables? string"');
  if (flags.has('-nocommands') && flags.has('-novariables')) return flags.has('-nobackslashes') ? text : unescape(text);
  // Escape what must stay literal, then substitute the rest.
  let src = text;
  if (flags.has('-nobackslashes')) src = src.replace(/\\/g, '\\\\');
  if (flags.has('-nocommands')) src = src.replace(/\[/g, '\\[');
  if (flags.has('-novariables')) src = src.replace(/\$/g, '\\$');
  return ctx.interp.substParts(parseParts(src), ctx.argLines[args.length - 1]!);
}

export function registerVariables(interp: Interp): void {
  interp.register('set', set);
  interp.register('unset', unset);
  interp.register('incr', incr);
  interp.register('append', append);
  interp.register('global', globalCmd);
  interp.register('upvar', upvar);
  interp.register('uplevel', uplevel);
  interp.register('array', array);
  interp.register('subst', subst);
}
