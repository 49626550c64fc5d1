import { TclError } from './errors.js';
import { toBool, toDouble, type Num, type Val } from './numbers.js';

/** expr's math functions (tcl::mathfunc): int double round abs min max sqrt pow floor ceil rand srand wide entier bool ... */
let seed = (Date.now() % 2147483646) + 1;

function numeric(v: Val, _fn: string): Num {
  if (v.k === 'str') throw new TclError(`expected floating-point number but got "${v.v}"`);
  return v;
}

const dbl = (v: number): Val => ({ k: 'dbl', v });
const int = (v: bigint): Val => ({ k: 'int', v });

function toInteger(n: Num): bigint {
  if (n.k === 'int') return n.v;
  if (!Number.isFinite(n.v)) throw new TclError(`integer value too large to represent`);
  return BigInt(Math.trunc(n.v));
}

const ONE: Record<string, (x: number) => number> = {
  sqrt: Math.sqrt,
  floor: Math.floor,
  ceil: Math.ceil,
  exp: Math.exp,
  log: Math.log,
  log10: Math.log10,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
};

function arity(name: string, args: Val[], n: number): void {
  if (args.length !== n) throw new TclError(`${args.length < n ? 'too few' : 'too many'} arguments for math function "${name}"`);
}

export function callFunction(name: string, args: Val[]): Val {
  const fn = name.replace(/^(::)?tcl::mathfunc::/, '');
  if (ONE[fn]) {
    arity(fn, args, 1);
    return dbl(ONE[fn](toDouble(numeric(args[0]!, fn))));
  }
  switch (fn) {
    case 'int':
    case 'wide':
    case 'entier':
      arity(fn, args, 1);
      return int(toInteger(numeric(args[0]!, fn)));
    case 'double':
      arity(fn, args, 1);
      return dbl(toDouble(numeric(args[0]!, fn)));
    case 'round': {
      arity(fn, args, 1);
      const n = numeric(args[0]!, fn);
      if (n.k === 'int') return n;
      return int(BigInt(Math.sign(n.v) * Math.round(Math.abs(n.v))));
    }
    case 'abs': {
      arity(fn, args, 1);
      const n = numeric(args[0]!, fn);
      return n.k === 'int' ? int(n.v < 0n ? -n.v : n.v) : dbl(Math.abs(n.v));
    }
    case 'bool':
      arity(fn, args, 1);
      return int(toBool(args[0]!.k === 'str' ? args[0]!.v : String(toDouble(args[0]!))) ? 1n : 0n);
    case 'min':
    case 'max': {
      if (!args.length) throw new TclError(`too few arguments for math function "${fn}"`);
      const nums = args.map((a) => numeric(a, fn));
      return nums.reduce((best, x) => ((fn === 'min' ? toDouble(x) < toDouble(best) : toDouble(x) > toDouble(best)) ? x : best));
    }
    case 'pow':
    case 'atan2':
    case 'fmod':
    case 'hypot': {
      arity(fn, args, 2);
      const x = toDouble(numeric(args[0]!, fn));
      const y = toDouble(numeric(args[1]!, fn));
      return dbl(fn === 'pow' ? Math.pow(x, y) : fn === 'atan2' ? Math.atan2(x, y) : fn === 'fmod' ? x % y : Math.hypot(x, y));
    }
    case 'isqrt':
      arity(fn, args, 1);
      return int(BigInt(Math.floor(Math.sqrt(toDouble(numeric(args[0]!, fn))))));
    case 'rand':
      arity(fn, args, 0);
      seed = (seed * 16807) % 2147483647;
      return dbl(seed / 2147483647);
    case 'srand': {
      arity(fn, args, 1);
      seed = Number(toInteger(numeric(args[0]!, fn)) % 2147483646n) || 1;
      if (seed < 0) seed += 2147483646;
      seed = (seed * 16807) % 2147483647;
      return dbl(seed / 2147483647);
    }
  }
  throw new TclError(`invalid command name "tcl::mathfunc::${fn}"`);
}
