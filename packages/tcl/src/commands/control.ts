import { TclControl, TclError, TclExit } from '../errors.js';
import { exprBool, exprString } from '../expr.js';
import type { CallContext, Interp } from '../interp.js';
import { formatList, parseList } from '../lists.js';
import { toInt } from '../numbers.js';
import { globMatch } from './strings.js';
import { arity } from './util.js';

/** Control flow: if while for foreach lmap break continue return error catch eval expr switch exit. */

/** Run a loop body: break ends the loop (returns false), continue goes on. */
export async function loopBody(interp: Interp, body: string, line: number): Promise<boolean> {
  try {
    await interp.eval(body, line);
    return true;
  } catch (e) {
    if (e instanceof TclControl && e.code === 'break') return false;
    if (e instanceof TclControl && e.code === 'continue') return true;
    throw e;
  }
}

async function ifCmd(args: string[], ctx: CallContext): Promise<string> {
  let i = 1;
  for (;;) {
    if (i >= args.length) throw new TclError(`wrong # args: no expression after "${args[i - 1]}" argument`);
    const cond = await exprBool(ctx.interp, args[i]!, ctx.argLines[i]);
    i++;
    if (args[i] === 'then') i++;
    if (i >= args.length) throw new TclError(`wrong # args: no script following "${args[i - 1]}" argument`);
    if (cond) return ctx.interp.eval(args[i]!, ctx.argLines[i]);
    i++;
    if (i >= args.length) return '';
    if (args[i] === 'elseif') {
      i++;
      continue;
    }
    if (args[i] === 'else') i++;
    if (i !== args.length - 1) throw new TclError(`wrong # args: extra words after "else" clause in "if" command`);
    return ctx.interp.eval(args[i]!, ctx.argLines[i]);
  }
}

async function whileCmd(args: string[], ctx: CallContext): Promise<string> {
  arity(args, 2, 2, 'while test command');
  while (await exprBool(ctx.interp, args[1]!, ctx.argLines[1])) if (!(await loopBody(ctx.interp, args[2]!, ctx.argLines[2]!))) break;
  return '';
}

async function forCmd(args: string[], ctx: CallContext): Promise<string> {
  arity(args, 4, 4, 'for start test next command');
  const { interp, argLines } = ctx;
  await interp.eval(args[1]!, argLines[1]);
  while (await exprBool(interp, args[2]!, argLines[2])) {
    if (!(await loopBody(interp, args[4]!, argLines[4]!))) break;
    await interp.eval(args[3]!, argLines[3]);
  }
  return '';
}

/** foreach and lmap: several variable lists, each over its own list. */
async function iterate(args: string[], ctx: CallContext, collect: boolean): Promise<string> {
  const name = collect ? 'lmap' : 'foreach';
  if (args.length < 4 || args.length % 2 !== 0) throw new TclError(`wrong # args: should be "${name} varList list ?varList list ...? command"`);
  const pairs: { vars: string[]; list: string[] }[] = [];
  for (let i = 1; i < args.length - 1; i += 2) {
    const vars = parseList(args[i]!);
    if (!vars.length) throw new TclError(`${name} varlist is empty`);
    pairs.push({ vars, list: parseList(args[i + 1]!) });
  }
  const rounds = Math.max(...pairs.map((p) => Math.ceil(p.list.length / p.vars.length)));
  const body = args[args.length - 1]!;
  const line = ctx.argLines[args.length - 1]!;
  const out: string[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const p of pairs) p.vars.forEach((v, k) => ctx.interp.setVar(v, p.list[r * p.vars.length + k] ?? ''));
    if (collect) {
      try {
        out.push(await ctx.interp.eval(body, line));
      } catch (e) {
        if (e instanceof TclControl && e.code === 'break') break;
        if (!(e instanceof TclControl && e.code === 'continue')) throw e;
      }
    } else if (!(await loopBody(ctx.interp, body, line))) break;
  }
  return collect ? formatList(out) : '';
}

function returnCmd(args: string[]): never {
  let code = 'ok';
  let i = 1;
  while (i + 1 < args.length && args[i]!.startsWith('-')) {
    if (args[i] === '-code') code = args[i + 1]!;
    i += 2;
  }
  const value = args[i] ?? '';
  const codes: Record<string, 'ok' | 'error' | 'break' | 'continue'> = { ok: 'ok', '0': 'ok', error: 'error', '1': 'error', break: 'break', '3': 'break', continue: 'continue', '4': 'continue' };
  if (code === 'return' || code === '2') throw new TclControl('return', value);
  const rc = codes[code];
  if (!rc) throw new TclError(`bad completion code "${code}": must be ok, error, return, break, continue, or an integer`);
  throw new TclControl('return', value, rc);
}

async function catchCmd(args: string[], ctx: CallContext): Promise<string> {
  arity(args, 1, 3, 'catch script ?resultVarName? ?optionVarName?');
  const { interp } = ctx;
  let code = 0;
  let result = '';
  try {
    result = await interp.eval(args[1]!, ctx.argLines[1]);
  } catch (e) {
    if (e instanceof TclError) {
      code = 1;
      result = e.message;
      interp.setVar('::errorInfo', e.report());
      interp.setVar('::errorCode', e.errorCode);
    } else if (e instanceof TclControl) {
      code = { return: 2, break: 3, continue: 4 }[e.code];
      result = e.value;
    } else throw e;
  }
  if (args[2] !== undefined) interp.setVar(args[2], result);
  if (args[3] !== undefined) interp.setVar(args[3], formatList(['-code', String(code), '-level', code === 2 ? '1' : '0']));
  return String(code);
}

function errorCmd(args: string[]): never {
  arity(args, 1, 3, 'error message ?errorInfo? ?errorCode?');
  const e = new TclError(args[1]!);
  if (args[3] !== undefined) e.errorCode = args[3];
  throw e;
}

/** switch ?options? string {pattern body ...} | switch ?options? string pattern body ... */
async function switchCmd(args: string[], ctx: CallContext): Promise<string> {
  let i = 1;
  let mode = '-exact';
  let nocase = false;
  while (i < args.length && args[i]!.startsWith('-')) {
    const o = args[i++]!;
    if (o === '--') break;
    if (o === '-nocase') nocase = true;
    else if (o === '-exact' || o === '-glob' || o === '-regexp') mode = o;
    else throw new TclError(`bad option "${o}": must be -exact, -glob, -nocase, -regexp, or --`);
  }
  const value = args[i++];
  if (value === undefined) throw new TclError('wrong # args: should be "switch ?-option ...? string ?pattern body ...? ?default body?"');
  let clauses = args.slice(i);
  let lines = ctx.argLines.slice(i);
  if (clauses.length === 1) {
    clauses = parseList(clauses[0]!);
    lines = clauses.map(() => ctx.argLines[i]!);
  }
  if (clauses.length % 2 !== 0) throw new TclError('extra switch pattern with no body');
  const matches = (pat: string) => {
    const [a, b] = nocase ? [pat.toLowerCase(), value.toLowerCase()] : [pat, value];
    if (mode === '-glob') return globMatch(a, b);
    if (mode === '-regexp') return new RegExp(pat, nocase ? 'i' : '').test(value);
    return a === b;
  };
  for (let k = 0; k < clauses.length; k += 2) {
    const last = k === clauses.length - 2;
    if ((last && clauses[k] === 'default') || matches(clauses[k]!)) {
      let b = k + 1;
      while (clauses[b] === '-' && b + 2 < clauses.length) b += 2;
      return ctx.interp.eval(clauses[b]!, lines[b]);
    }
  }
  return '';
}

export function registerControl(interp: Interp): void {
  interp.register('if', ifCmd);
  interp.register('while', whileCmd);
  interp.register('for', forCmd);
  interp.register('foreach', (a, c) => iterate(a, c, false));
  interp.register('lmap', (a, c) => iterate(a, c, true));
  interp.register('break', (a) => {
    arity(a, 0, 0, 'break');
    throw new TclControl('break');
  });
  interp.register('continue', (a) => {
    arity(a, 0, 0, 'continue');
    throw new TclControl('continue');
  });
  interp.register('return', returnCmd);
  interp.register('catch', catchCmd);
  interp.register('error', errorCmd);
  interp.register('switch', switchCmd);
  interp.register('eval', (a, c) => {
    if (a.length < 2) throw new TclError('wrong # args: should be "eval arg ?arg ...?"');
    return c.interp.eval(a.length === 2 ? a[1]! : a.slice(1).join(' '), c.argLines[1]);
  });
  interp.register('expr', (a, c) => {
    if (a.length < 2) throw new TclError('wrong # args: should be "expr arg ?arg ...?"');
    return exprString(c.interp, a.slice(1).join(' '), c.argLines[1]);
  });
  interp.register('exit', (a) => {
    arity(a, 0, 1, 'exit ?returnCode?');
    throw new TclExit(a[1] === undefined ? 0 : Number(toInt(a[1])));
  });
}
