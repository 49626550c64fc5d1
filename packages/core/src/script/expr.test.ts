import { describe, expect, it } from 'vitest';
import { parseScript } from './parse.js';
import { evaluate, type EvalContext } from './eval.js';
import { scriptRandom } from './random.js';
import { FUNCTION_ARITY } from './arity.js';
import { ScriptRuntimeError, ScriptSyntaxError } from './errors.js';
import type { ScriptValue } from './values.js';

/** Evaluate `\set x <expr>` with the given variables; debug lines collected. */
function ev(expr: string, vars: Record<string, ScriptValue> = {}, seed = 1, debug: string[] = []): ScriptValue {
  const s = parseScript('t', `\\set x ${expr}\n`);
  const c = s.commands[0]!;
  if (c.k !== 'set') throw new Error('not a set');
  const ctx: EvalContext = {
    vars: new Map(Object.entries(vars)),
    rand: scriptRandom(seed),
    debug: (l) => debug.push(l),
    fail: (m) => { throw new ScriptRuntimeError('t', 1, m); },
  };
  return evaluate(c.expr, ctx);
}

describe('pgbench expressions: arithmetic and types', () => {
  it('integers stay integers, a double makes a double', () => {
    expect(ev('1 + 2 * 3')).toBe(7n);
    expect(ev('(1 + 2) * 3')).toBe(9n);
    expect(ev('7 / 2')).toBe(3n);
    expect(ev('-7 / 2')).toBe(-3n);
    expect(ev('7 % 3')).toBe(1n);
    expect(ev('-7 % 3')).toBe(-1n);
    expect(ev('7.0 / 2')).toBe(3.5);
    expect(ev('1 + 0.5')).toBe(1.5);
    expect(ev('1e3')).toBe(1000);
    expect(ev('.5 * 4')).toBe(2);
    expect(ev('- 3 + +4')).toBe(1n);
    expect(ev('-9223372036854775808')).toBe(-(2n ** 63n));
  });
  it('bit operators', () => {
    expect(ev('6 & 3')).toBe(2n);
    expect(ev('6 | 3')).toBe(7n);
    expect(ev('6 # 3')).toBe(5n);
    expect(ev('~0')).toBe(-1n);
    expect(ev('1 << 10')).toBe(1024n);
    expect(ev('-16 >> 2')).toBe(-4n);
    expect(ev('1 + 1 << 2')).toBe(8n); // + binds tighter than <<
  });
  it('comparisons, logic with NULL, IS tests', () => {
    expect(ev('1 < 2')).toBe(true);
    expect(ev('2 <= 1')).toBe(false);
    expect(ev('3 = 3.0')).toBe(true);
    expect(ev('3 != 4')).toBe(true);
    expect(ev('3 <> 3')).toBe(false);
    expect(ev('1 < 2 AND 2 < 3')).toBe(true);
    expect(ev('false OR NOT false')).toBe(true);
    expect(ev('null AND false')).toBe(false);
    expect(ev('null AND true')).toBe(null);
    expect(ev('null OR true')).toBe(true);
    expect(ev('NOT null')).toBe(null);
    expect(ev('null IS NULL')).toBe(true);
    expect(ev('1 ISNULL')).toBe(false);
    expect(ev('1 NOTNULL')).toBe(true);
    expect(ev('(1 = 1) IS TRUE')).toBe(true);
    expect(ev('null IS NOT FALSE')).toBe(true);
    expect(ev('5 AND 0')).toBe(false);
  });
  it('CASE, searched and simple', () => {
    expect(ev('CASE WHEN :a > 5 THEN 1 WHEN :a > 2 THEN 2 ELSE 3 END', { a: 4n })).toBe(2n);
    expect(ev('case when false then 1 end')).toBe(null);
    expect(ev('CASE :a WHEN 1 THEN 10 WHEN 2 THEN 20 ELSE 0 END', { a: 2n })).toBe(20n);
  });
  it('variables: strings from \\gset read as numbers', () => {
    expect(ev(':a * 2', { a: '21' })).toBe(42n);
    expect(ev(':a * 2', { a: '1.25' })).toBe(2.5);
    expect(() => ev(':a + 1', { a: 'abc' })).toThrow(/malformed variable value "abc"/);
    expect(() => ev(':nope + 1')).toThrow(/t:1: undefined variable "nope"/);
  });
  it('runtime errors: division by zero, overflow, NULL arithmetic', () => {
    expect(() => ev('1 / 0')).toThrow(/division by zero/);
    expect(() => ev('1 % 0')).toThrow(/division by zero/);
    expect(() => ev('1.0 / 0')).toThrow(/division by zero/);
    expect(() => ev('9223372036854775807 + 1')).toThrow(/bigint out of range/);
    expect(() => ev('-9223372036854775808 / -1')).toThrow(/bigint out of range/);
    expect(() => ev('null + 1')).toThrow(/NULL/);
    expect(() => ev('true + 1')).toThrow(/boolean/);
    expect(() => ev('1 + 1')).not.toThrow();
    const err = (() => { try { ev('1 / 0'); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(ScriptRuntimeError);
    expect((err as ScriptRuntimeError).code).toBe('SLEDGE_E_VALIDATION');
  });
});

describe('pgbench functions: every one', () => {
  it('covers the documented list', () => {
    expect(Object.keys(FUNCTION_ARITY).sort()).toEqual(
      ['abs', 'debug', 'double', 'exp', 'greatest', 'hash', 'hash_fnv1a', 'hash_murmur2', 'int', 'least', 'ln', 'mod', 'permute', 'pi', 'pow', 'power',
        'random', 'random_exponential', 'random_gaussian', 'random_zipfian', 'sqrt'].sort(),
    );
  });
  it('math', () => {
    expect(ev('abs(-17)')).toBe(17n);
    expect(ev('abs(-17.5)')).toBe(17.5);
    expect(ev('double(5432)')).toBe(5432);
    expect(typeof ev('double(5432)')).toBe('number');
    expect(ev('exp(1.0)')).toBeCloseTo(Math.E, 12);
    expect(ev('ln(2.718281828459045)')).toBeCloseTo(1, 12);
    expect(ev('sqrt(2.0)')).toBeCloseTo(Math.SQRT2, 12);
    expect(ev('pi()')).toBe(Math.PI);
    expect(ev('pow(2.0, 10)')).toBe(1024);
    expect(ev('power(2, 10)')).toBe(1024);
    expect(ev('int(5.4 + 3.8)')).toBe(9n);
    expect(ev('int(-5.9)')).toBe(-5n);
    expect(ev('mod(54, 32)')).toBe(22n);
    expect(ev('mod(-54, 32)')).toBe(-22n);
    expect(ev('greatest(5, 4, 3, 2)')).toBe(5n);
    expect(ev('greatest(1, 2.5)')).toBe(2.5);
    expect(ev('least(5, 4, 3, 2.1)')).toBe(2.1);
    expect(ev('least(5, 4, 3, 2)')).toBe(2n);
  });
  it('debug prints its argument and returns it', () => {
    const lines: string[] = [];
    expect(ev('debug(5432.1)', {}, 1, lines)).toBe(5432.1);
    expect(ev('debug(7)', {}, 1, lines)).toBe(7n);
    expect(lines).toEqual(['debug(double): 5432.1', 'debug(int): 7']);
  });
  it('hashes: deterministic, seeded, default seed from :default_seed, spread', () => {
    const a = ev('hash(10, 5432)');
    expect(ev('hash(10, 5432)')).toBe(a);
    expect(ev('hash_murmur2(10, 5432)')).toBe(a);
    expect(ev('hash(10, 5433)')).not.toBe(a);
    expect(ev('hash_fnv1a(10, 5432)')).not.toBe(a);
    expect(ev('hash_fnv1a(10)', { default_seed: 5432n })).toBe(ev('hash_fnv1a(10, 5432)'));
    expect(ev('hash(10)', { default_seed: 7n })).toBe(ev('hash(10, 7)'));
    for (const f of ['hash_fnv1a', 'hash_murmur2']) {
      const seen = new Set<bigint>();
      let neg = 0;
      for (let i = 0; i < 1000; i++) {
        const h = ev(`${f}(${i}, 1)`) as bigint;
        seen.add(h);
        if (h < 0n) neg++;
      }
      expect(seen.size).toBe(1000);
      expect(neg).toBeGreaterThan(400);
      expect(neg).toBeLessThan(600);
    }
  });
  it('permute: a perfect permutation of [0, size), seeded, modulo size', () => {
    for (const size of [1, 2, 3, 10, 17, 1000]) {
      const out = new Set<bigint>();
      for (let i = 0; i < size; i++) out.add(ev(`permute(${i}, ${size}, 42)`) as bigint);
      expect(out.size).toBe(size);
      for (const v of out) expect(v >= 0n && v < BigInt(size)).toBe(true);
    }
    expect(ev('permute(1003, 1000, 42)')).toBe(ev('permute(3, 1000, 42)'));
    expect(ev('permute(-997, 1000, 42)')).toBe(ev('permute(3, 1000, 42)'));
    const moved = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((i) => ev(`permute(${i}, 1000, 1)`) !== ev(`permute(${i}, 1000, 2)`));
    expect(moved.length).toBeGreaterThan(5);
    expect(ev('permute(5, 100)', { default_seed: 9n })).toBe(ev('permute(5, 100, 9)'));
    expect(() => ev('permute(1, 0)')).toThrow(/permute size must be greater than zero/);
  });
  it('random: the same seed gives the same draws, bounds inclusive', () => {
    expect(ev('random(1, 1000000)', {}, 7)).toBe(ev('random(1, 1000000)', {}, 7));
    expect(ev('random(5, 5)')).toBe(5n);
    expect(() => ev('random(5, 4)')).toThrow(/empty range/);
    expect(() => ev('random_exponential(1, 10, 0)')).toThrow(/exponential parameter must be greater than zero/);
    expect(() => ev('random_gaussian(1, 10, 1.5)')).toThrow(/gaussian parameter must be at least 2/);
    expect(() => ev('random_zipfian(1, 10, 1.0)')).toThrow(/zipfian parameter must be in range \[1.001, 1000\]/);
    expect(() => ev('random_zipfian(1, 10, 1001)')).toThrow(/zipfian parameter/);
    const big = ev('random(-9223372036854775808, 9223372036854775806)') as bigint;
    expect(big >= -(2n ** 63n) && big <= 2n ** 63n - 2n).toBe(true);
  });
});

/** n draws of `expr` in one client (one random stream). */
function draws(expr: string, n: number, seed = 3): number[] {
  const s = parseScript('t', `\\set x ${expr}\n`);
  const c = s.commands[0]!;
  if (c.k !== 'set') throw new Error('not a set');
  const ctx: EvalContext = { vars: new Map(), rand: scriptRandom(seed), debug: () => undefined, fail: (m) => { throw new Error(m); } };
  return Array.from({ length: n }, () => Number(evaluate(c.expr, ctx) as bigint));
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('pgbench distributions (statistical, loose)', () => {
  const N = 20000;
  it('random is uniform over [lb, ub]', () => {
    const xs = draws('random(1, 10)', N);
    expect(Math.min(...xs)).toBe(1);
    expect(Math.max(...xs)).toBe(10);
    expect(mean(xs)).toBeGreaterThan(5.4);
    expect(mean(xs)).toBeLessThan(5.6);
    const counts = Array.from({ length: 10 }, (_, k) => xs.filter((x) => x === k + 1).length);
    for (const c of counts) expect(Math.abs(c - N / 10)).toBeLessThan(N / 10 * 0.1);
  });
  it('random_exponential: in range, mean as the truncated exponential gives', () => {
    const p = 5;
    const xs = draws(`random_exponential(0, 999, ${p})`, N);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThanOrEqual(999);
    // mean of r on [0,1) with density p e^{-pr}/(1-e^{-p}): 1/p - e^{-p}/(1-e^{-p})
    const expected = 1000 * (1 / p - Math.exp(-p) / (1 - Math.exp(-p)));
    expect(Math.abs(mean(xs) - expected)).toBeLessThan(expected * 0.05);
    // pgbench's documented rule: a 1 - exp(-parameter) share... the first 1/parameter of the range draws 1 - e^{-1} of values
    const first = xs.filter((x) => x < 1000 / p).length / N;
    expect(Math.abs(first - (1 - Math.exp(-1)) / (1 - Math.exp(-p)))).toBeLessThan(0.02);
  });
  it('random_gaussian: in range, centred, ~67% within the middle for parameter 2... (as documented)', () => {
    const xs = draws('random_gaussian(1, 10, 2.5)', N);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...xs)).toBeLessThanOrEqual(10);
    expect(Math.abs(mean(xs) - 5.5)).toBeLessThan(0.1);
    // documented: with parameter 4.0, 67% of values come from the middle quarter (4.0 / 4.0 = 1 sigma)
    const ys = draws('random_gaussian(0, 999, 4.0)', N);
    const middle = ys.filter((y) => y >= 375 && y < 625).length / N;
    expect(Math.abs(middle - 0.6827)).toBeLessThan(0.03);
  });
  it('random_zipfian: in range, value k drawn ~ 1/k^s', () => {
    const s = 1.5;
    const xs = draws(`random_zipfian(1, 10, ${s})`, N);
    expect(Math.min(...xs)).toBe(1);
    expect(Math.max(...xs)).toBeLessThanOrEqual(10);
    const c1 = xs.filter((x) => x === 1).length;
    const c2 = xs.filter((x) => x === 2).length;
    expect(Math.abs(c1 / c2 - Math.pow(2, s))).toBeLessThan(0.25);
    const ys = draws('random_zipfian(100, 10000, 1.001)', 2000);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...ys)).toBeLessThanOrEqual(10000);
  });
});

describe('expression syntax errors carry line and column', () => {
  const err = (text: string): ScriptSyntaxError => {
    try { parseScript('my.sql', text, { field: 'script.scripts[0].text' }); } catch (e) { return e as ScriptSyntaxError; }
    throw new Error('no error');
  };
  it('points at the token', () => {
    const e = err('SELECT 1;\n\\set x 1 + * 2\n');
    expect(e).toBeInstanceOf(ScriptSyntaxError);
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe('script.scripts[0].text');
    expect(e.line).toBe(2);
    expect(e.column).toBe(12);
    expect(e.message).toBe('my.sql:2:12: unexpected "*"');
  });
  it('unknown functions, wrong arity, chained comparisons, missing END', () => {
    expect(err('\\set x foo(1)').message).toBe('my.sql:1:8: unknown function "foo"');
    expect(err('\\set x random(1)').message).toBe('my.sql:1:8: random() takes 2 argument(s), not 1');
    expect(err('\\set x greatest()').message).toMatch(/greatest\(\) takes at least 1/);
    expect(err('\\set x 1 < 2 < 3').message).toBe('my.sql:1:14: comparison operators cannot be chained');
    expect(err('\\set x CASE WHEN true THEN 1').message).toBe('my.sql:1:29: expected END');
    expect(err('\\set x (1 + 2').message).toBe('my.sql:1:14: expected ")"');
    expect(err('\\set x 1 2').message).toBe('my.sql:1:10: unexpected text after the expression');
    expect(err('\\set x 1 $ 2').message).toBe('my.sql:1:10: unexpected character "$"');
    expect(err('\\set x 99999999999999999999').message).toMatch(/my.sql:1:8: integer constant .* out of range/);
  });
});
