import { readFileSync } from 'node:fs';
import { TclControl, TclError } from '../errors.js';
import type { CallContext, Command, Interp } from '../interp.js';
import { formatList, parseList } from '../lists.js';
import { toInt } from '../numbers.js';
import { Frame } from '../vars.js';
import { arity, subcommand } from './util.js';
import { globMatch } from './strings.js';

/** Procedures and the interpreter itself: proc rename info source after vwait update. */

interface ProcDef {
  params: [string, string | undefined][];
  body: string;
  bodyLine: number;
  file: string | undefined;
}

/** Tcl's default recursion limit. */
const MAX_DEPTH = 1000;

const defs = new WeakMap<Command, ProcDef>();

/** What a procedure's caller sees of `return ?-code c? value`. */
export function returned(e: TclControl): string {
  if (e.returnCode === 'error') throw new TclError(e.value);
  if (e.returnCode === 'break' || e.returnCode === 'continue') throw new TclControl(e.returnCode);
  return e.value;
}

function usage(name: string, params: ProcDef['params']): string {
  const p = params.map(([n, d], i) => (n === 'args' && i === params.length - 1 ? '?arg ...?' : d !== undefined ? `?${n}?` : n));
  return `wrong # args: should be "${[name, ...p].join(' ')}"`;
}

function proc(args: string[], ctx: CallContext): string {
  arity(args, 3, 3, 'proc name args body');
  const name = args[1]!.replace(/^::/, '');
  const params = parseList(args[2]!).map((p): [string, string | undefined] => {
    const parts = parseList(p);
    if (parts.length > 2 || !parts.length) throw new TclError(`too many fields in argument specifier "${p}"`);
    return [parts[0]!, parts[1]];
  });
  const def: ProcDef = { params, body: args[3]!, bodyLine: ctx.argLines[3]!, file: ctx.interp.file };
  const fn: Command = async (callArgs, c) => {
    if (c.interp.depth >= MAX_DEPTH) throw new TclError('too many nested evaluations (infinite loop?)');
    const frame = new Frame(c.interp.depth + 1, name);
    const given = callArgs.slice(1);
    params.forEach(([p, d], i) => {
      if (p === 'args' && i === params.length - 1) frame.get('args', true)!.value = formatList(given.slice(i));
      else if (i < given.length) frame.get(p, true)!.value = given[i]!;
      else if (d !== undefined) frame.get(p, true)!.value = d;
      else throw new TclError(usage(name, params));
    });
    const variadic = params.at(-1)?.[0] === 'args';
    if (!variadic && given.length > params.length) throw new TclError(usage(name, params));
    const savedFile = c.interp.file;
    c.interp.file = def.file;
    try {
      return await c.interp.inFrame(frame, () => c.interp.eval(def.body, def.bodyLine));
    } catch (e) {
      if (e instanceof TclControl && e.code === 'return') return returned(e);
      if (e instanceof TclControl) throw new TclError(`invoked "${e.code}" outside of a loop`);
      throw e;
    } finally {
      c.interp.file = savedFile;
    }
  };
  defs.set(fn, def);
  ctx.interp.register(name, fn);
  ctx.interp.procs.add(name);
  return '';
}

function rename(args: string[], { interp }: CallContext): string {
  arity(args, 2, 2, 'rename oldName newName');
  const [, from, to] = args as [string, string, string];
  const fn = interp.commands.get(from);
  if (!fn) throw new TclError(`can't rename "${from}": command doesn't exist`);
  interp.commands.delete(from);
  const wasProc = interp.procs.delete(from);
  if (to !== '') {
    interp.commands.set(to, fn);
    if (wasProc) interp.procs.add(to);
  }
  return '';
}

function procDef(interp: Interp, name: string): ProcDef {
  const fn = interp.commands.get(name);
  const def = fn && defs.get(fn);
  if (!def) throw new TclError(`"${name}" isn't a procedure`);
  return def;
}

function info(args: string[], { interp }: CallContext): string {
  arity(args, 1, 3, 'info subcommand ?arg ...?');
  const pattern = args[2];
  const filter = (names: Iterable<string>) => formatList([...names].filter((n) => pattern === undefined || globMatch(pattern, n)));
  switch (subcommand(args[1], ['exists', 'commands', 'procs', 'vars', 'locals', 'globals', 'level', 'script', 'args', 'body', 'hostname', 'nameofexecutable', 'tclversion', 'patchlevel'])) {
    case 'exists':
      arity(args, 2, 2, 'info exists varName');
      return interp.exists(args[2]!) ? '1' : '0';
    case 'commands':
      return filter(interp.commands.keys());
    case 'procs':
      return filter(interp.procs);
    case 'vars':
    case 'locals':
      return filter(interp.frame.vars.keys());
    case 'globals':
      return filter(interp.global.vars.keys());
    case 'level':
      return String(interp.depth);
    case 'script':
      return interp.file ?? '';
    case 'args':
      return formatList(procDef(interp, args[2]!).params.map(([n]) => n));
    case 'body':
      return procDef(interp, args[2]!).body;
    case 'hostname':
      return process.env['HOSTNAME'] ?? 'localhost';
    case 'nameofexecutable':
      return process.execPath;
    case 'tclversion':
      return '8.6';
    case 'patchlevel':
      return '8.6.13';
  }
  return '';
}

async function source(args: string[], { interp }: CallContext): Promise<string> {
  arity(args, 1, 1, 'source fileName');
  let text: string;
  try {
    text = readFileSync(args[1]!, 'utf8');
  } catch (e) {
    throw new TclError(`couldn't read file "${args[1]}": ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
  }
  return interp.evalFile(text, args[1]!);
}

async function after(args: string[], { interp }: CallContext): Promise<string> {
  arity(args, 1, Infinity, 'after option ?arg ...?');
  if (args[1] === 'cancel') {
    interp.cancel(args.slice(2).join(' '));
    return '';
  }
  if (args[1] === 'info') return formatList([...interp.pendingTimers]);
  if (args[1] === 'idle') return interp.schedule(0, args.slice(2).join(' '));
  const ms = Number(toInt(args[1]!));
  if (args.length === 2) {
    await new Promise((r) => setTimeout(r, Math.max(0, ms)));
    return '';
  }
  return interp.schedule(Math.max(0, ms), args.length === 3 ? args[2]! : args.slice(2).join(' '));
}

export function registerProcs(interp: Interp): void {
  interp.register('proc', proc);
  interp.register('rename', rename);
  interp.register('info', info);
  interp.register('source', source);
  interp.register('after', after);
  interp.register('vwait', async (a, c) => {
    arity(a, 1, 1, 'vwait name');
    await c.interp.vwait(a[1]!);
    return '';
  });
  interp.register('update', async (a, c) => {
    arity(a, 0, 1, 'update ?idletasks?');
    await c.interp.runTimers(false);
    return '';
  });
}
