import type { Expr } from './expr.js';
import { checkInt, fromText, INT64_MIN, valueText, type ScriptValue } from './values.js';
import { randomExponential, randomGaussian, randomUniform, randomZipfian, type ScriptRandom } from './dists.js';
import { hashFnv1a, hashMurmur2, permute } from './hash.js';

/** What an expression reads: the client's variables, its random source, and where debug() prints. */
export interface EvalContext {
  vars: Map<string, ScriptValue>;
  rand: ScriptRandom;
  debug(line: string): void;
  fail(message: string): never;
}

type Num = bigint | number;

function resolve(v: ScriptValue, ctx: EvalContext): ScriptValue {
  return typeof v === 'string' ? fromText(v, ctx.fail) : v;
}

function toNum(v: ScriptValue, ctx: EvalContext): Num {
  v = resolve(v, ctx);
  if (v === null) ctx.fail('cannot use NULL as a number');
  if (typeof v === 'boolean') ctx.fail('cannot use a boolean as a number');
  return v as Num;
}

function toInt(v: ScriptValue, ctx: EvalContext): bigint {
  const n = toNum(v, ctx);
  if (typeof n === 'bigint') return n;
  if (!Number.isFinite(n) || n < -9.223372036854776e18 || n >= 9.223372036854776e18) ctx.fail(`double ${n} is out of range for an integer`);
  return BigInt(Math.trunc(n));
}

function toDouble(v: ScriptValue, ctx: EvalContext): number {
  const n = toNum(v, ctx);
  return typeof n === 'bigint' ? Number(n) : n;
}

function toBool(v: ScriptValue, ctx: EvalContext): boolean | null {
  v = resolve(v, ctx);
  if (v === null || typeof v === 'boolean') return v;
  return typeof v === 'bigint' ? v !== 0n : v !== 0;
}

function arith(op: string, a: Num, b: Num, ctx: EvalContext): Num {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+': return checkInt(a + b, ctx.fail);
      case '-': return checkInt(a - b, ctx.fail);
      case '*': return checkInt(a * b, ctx.fail);
      case '/':
        if (b === 0n) ctx.fail('division by zero');
        if (a === INT64_MIN && b === -1n) ctx.fail('bigint out of range');
        return a / b;
    }
  }
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '+': return x + y;
    case '-': return x - y;
    case '*': return x * y;
    default:
      if (y === 0) ctx.fail('division by zero');
      return x / y;
  }
}

function compare(op: string, a: Num, b: Num): boolean {
  const both = typeof a === 'bigint' && typeof b === 'bigint';
  const x = both ? a : Number(a);
  const y = both ? b : Number(b);
  switch (op) {
    case '=': return x === y;
    case '<>': return x !== y;
    case '<': return x < y;
    case '<=': return x <= y;
    case '>': return x > y;
    default: return x >= y;
  }
}

function intMod(a: bigint, b: bigint, ctx: EvalContext): bigint {
  if (b === 0n) ctx.fail('division by zero');
  return b === -1n ? 0n : a % b;
}

function bitOp(op: string, a: bigint, b: bigint): bigint {
  switch (op) {
    case '|': return a | b;
    case '#': return a ^ b;
    case '&': return a & b;
    case '<<': return BigInt.asIntN(64, a << (b & 63n));
    default: return a >> (b & 63n);
  }
}

function binary(e: Expr & { k: 'bin' }, ctx: EvalContext): ScriptValue {
  if (e.op === 'and' || e.op === 'or') {
    const a = toBool(evaluate(e.a, ctx), ctx);
    if (e.op === 'and' && a === false) return false;
    if (e.op === 'or' && a === true) return true;
    const b = toBool(evaluate(e.b, ctx), ctx);
    if (e.op === 'and') return b === false ? false : a === null || b === null ? null : true;
    return b === true ? true : a === null || b === null ? null : false;
  }
  const av = evaluate(e.a, ctx);
  const bv = evaluate(e.b, ctx);
  if (e.op === '%') return intMod(toInt(av, ctx), toInt(bv, ctx), ctx);
  if (['|', '#', '&', '<<', '>>'].includes(e.op)) return bitOp(e.op, toInt(av, ctx), toInt(bv, ctx));
  const a = toNum(av, ctx);
  const b = toNum(bv, ctx);
  if (['+', '-', '*', '/'].includes(e.op)) return arith(e.op, a, b, ctx);
  return compare(e.op, a, b);
}

function unary(e: Expr & { k: 'un' }, ctx: EvalContext): ScriptValue {
  const v = evaluate(e.a, ctx);
  if (e.op === 'not') { const b = toBool(v, ctx); return b === null ? null : !b; }
  if (e.op === '~') return ~toInt(v, ctx);
  const n = toNum(v, ctx);
  if (e.op === '+') return n;
  return typeof n === 'bigint' ? checkInt(-n, ctx.fail) : -n;
}

function isTest(e: Expr & { k: 'is' }, ctx: EvalContext): boolean {
  const v = resolve(evaluate(e.a, ctx), ctx);
  const r = e.what === 'null' ? v === null : v !== null && toBool(v, ctx) === (e.what === 'true');
  return e.not ? !r : r;
}

function caseExpr(e: Expr & { k: 'case' }, ctx: EvalContext): ScriptValue {
  const base = e.base ? toNum(evaluate(e.base, ctx), ctx) : undefined;
  for (const [when, then] of e.whens) {
    const hit = base === undefined ? toBool(evaluate(when, ctx), ctx) === true : compare('=', base, toNum(evaluate(when, ctx), ctx));
    if (hit) return evaluate(then, ctx);
  }
  return e.otherwise ? evaluate(e.otherwise, ctx) : null;
}

function extreme(args: ScriptValue[], ctx: EvalContext, pick: (a: Num, b: Num) => boolean): Num {
  const nums = args.map((a) => toNum(a, ctx));
  const anyDouble = nums.some((n) => typeof n === 'number');
  let best: Num = anyDouble ? Number(nums[0]) : nums[0]!;
  for (const n of nums.slice(1)) {
    const x = anyDouble ? Number(n) : n;
    if (pick(x, best)) best = x;
  }
  return best;
}

function typeName(v: ScriptValue): string {
  if (v === null) return 'null';
  return typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'double' : typeof v === 'boolean' ? 'boolean' : 'string';
}

function defaultSeed(ctx: EvalContext): bigint {
  const s = ctx.vars.get('default_seed');
  return s === undefined ? 0n : toInt(s, ctx);
}

function call(name: string, a: ScriptValue[], ctx: EvalContext): ScriptValue {
  const int = (i: number): bigint => toInt(a[i]!, ctx);
  const dbl = (i: number): number => toDouble(a[i]!, ctx);
  switch (name) {
    case 'abs': {
      const n = toNum(a[0]!, ctx);
      return typeof n === 'bigint' ? checkInt(n < 0n ? -n : n, ctx.fail) : Math.abs(n);
    }
    case 'debug': ctx.debug(`debug(${typeName(a[0]!)}): ${valueText(a[0]!)}`); return a[0]!;
    case 'double': return dbl(0);
    case 'exp': return Math.exp(dbl(0));
    case 'ln': return Math.log(dbl(0));
    case 'sqrt': return Math.sqrt(dbl(0));
    case 'pi': return Math.PI;
    case 'pow': case 'power': return Math.pow(dbl(0), dbl(1));
    case 'int': return int(0);
    case 'greatest': return extreme(a, ctx, (x, best) => x > best);
    case 'least': return extreme(a, ctx, (x, best) => x < best);
    case 'mod': return intMod(int(0), int(1), ctx);
    case 'hash': case 'hash_murmur2': return hashMurmur2(int(0), a.length > 1 ? int(1) : defaultSeed(ctx));
    case 'hash_fnv1a': return hashFnv1a(int(0), a.length > 1 ? int(1) : defaultSeed(ctx));
    case 'permute': {
      const size = int(1);
      if (size <= 0n) ctx.fail(`permute size must be greater than zero (got ${size})`);
      return permute(int(0), size, a.length > 2 ? int(2) : defaultSeed(ctx));
    }
    case 'random': return randomUniform(ctx.rand, int(0), int(1), ctx.fail);
    case 'random_exponential': return randomExponential(ctx.rand, int(0), int(1), dbl(2), ctx.fail);
    case 'random_gaussian': return randomGaussian(ctx.rand, int(0), int(1), dbl(2), ctx.fail);
    case 'random_zipfian': return randomZipfian(ctx.rand, int(0), int(1), dbl(2), ctx.fail);
    default: return ctx.fail(`unknown function "${name}"`);
  }
}

/** Evaluate an expression tree; errors go through ctx.fail. */
export function evaluate(e: Expr, ctx: EvalContext): ScriptValue {
  switch (e.k) {
    case 'lit': return e.v;
    case 'var': {
      const v = ctx.vars.get(e.name);
      if (v === undefined) ctx.fail(`undefined variable "${e.name}"`);
      return resolve(v, ctx);
    }
    case 'un': return unary(e, ctx);
    case 'bin': return binary(e, ctx);
    case 'is': return isTest(e, ctx);
    case 'case': return caseExpr(e, ctx);
    case 'fn': return call(e.name, e.args.map((x) => evaluate(x, ctx)), ctx);
  }
}
