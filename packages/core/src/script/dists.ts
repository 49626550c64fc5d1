/**
 * pgbench's random functions, from its documentation: uniform `random`,
 * `random_exponential`, `random_gaussian` (Box-Muller, truncated at
 * ±parameter) and `random_zipfian` (Devroye's rejection method for s > 1).
 * Each takes a source of uniform doubles in [0, 1) and returns an integer
 * in [lb, ub].
 */
import { INT64_MAX, INT64_MIN } from './values.js';

/** Uniform doubles in [0, 1) with 53 random bits. */
export interface ScriptRandom {
  uniform(): number;
}

type Fail = (m: string) => never;

function range(lb: bigint, ub: bigint, fail: Fail): bigint {
  if (ub < lb) fail(`empty range given to random: [${lb}, ${ub}]`);
  const n = ub - lb + 1n;
  if (lb + n - 1n > INT64_MAX || n - 1n > INT64_MAX - INT64_MIN) fail('random range is too large');
  return n;
}

/** An offset in [0, n) from a double r in [0, 1). */
function scale(n: bigint, r: number): bigint {
  const off = BigInt(Math.floor(Number(n) * r));
  return off >= n ? n - 1n : off;
}

export function randomUniform(rand: ScriptRandom, lb: bigint, ub: bigint, fail: Fail): bigint {
  const n = range(lb, ub, fail);
  if (n <= 1n << 53n) return lb + scale(n, rand.uniform());
  // wider than a double's mantissa: two draws, 106 bits, reduced modulo n
  const hi = BigInt(Math.floor(rand.uniform() * 2 ** 53));
  const lo = BigInt(Math.floor(rand.uniform() * 2 ** 53));
  return lb + (((hi << 53n) | lo) % n);
}

export function randomExponential(rand: ScriptRandom, lb: bigint, ub: bigint, parameter: number, fail: Fail): bigint {
  const n = range(lb, ub, fail);
  if (!(parameter > 0)) fail(`exponential parameter must be greater than zero (got ${parameter})`);
  const cut = Math.exp(-parameter);
  const u = 1 - rand.uniform(); // (0, 1]
  const r = -Math.log(cut + (1 - cut) * u) / parameter; // [0, 1)
  return lb + scale(n, r);
}

export const MIN_GAUSSIAN_PARAM = 2.0;

export function randomGaussian(rand: ScriptRandom, lb: bigint, ub: bigint, parameter: number, fail: Fail): bigint {
  const n = range(lb, ub, fail);
  if (!(parameter >= MIN_GAUSSIAN_PARAM)) fail(`gaussian parameter must be at least ${MIN_GAUSSIAN_PARAM} (got ${parameter})`);
  let z: number;
  do {
    const u1 = 1 - rand.uniform(); // (0, 1]
    const u2 = rand.uniform();
    z = Math.sqrt(-2 * Math.log(u1)) * Math.sin(2 * Math.PI * u2);
  } while (z < -parameter || z >= parameter);
  return lb + scale(n, (z + parameter) / (2 * parameter));
}

export const MIN_ZIPFIAN_PARAM = 1.001;
export const MAX_ZIPFIAN_PARAM = 1000;

export function randomZipfian(rand: ScriptRandom, lb: bigint, ub: bigint, s: number, fail: Fail): bigint {
  const n = Number(range(lb, ub, fail));
  if (!(s >= MIN_ZIPFIAN_PARAM && s <= MAX_ZIPFIAN_PARAM)) fail(`zipfian parameter must be in range [${MIN_ZIPFIAN_PARAM}, ${MAX_ZIPFIAN_PARAM}] (got ${s})`);
  const b = Math.pow(2, s - 1);
  for (;;) {
    const u = 1 - rand.uniform();
    const v = rand.uniform();
    const x = Math.floor(Math.pow(u, -1 / (s - 1)));
    if (!(x <= n)) continue;
    const t = Math.pow(1 + 1 / x, s - 1);
    if ((v * x * (t - 1)) / (b - 1) <= t / b) return lb + BigInt(x) - 1n;
  }
}
