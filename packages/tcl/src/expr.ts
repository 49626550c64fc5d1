import { TclError } from './errors.js';
import type { Interp } from './interp.js';
import { parseList } from './lists.js';
import { BOOLEAN_WORD, numToString, parseNumber, toBool, toDouble, type Num, type Val } from './numbers.js';
import { scanOperand, type Part } from './parser.js';
import { callFunction } from './expr-functions.js';

/**
 * `expr`: Tcl's operators and precedence, integers vs doubles as Tcl keeps
 * them (7/2 = 3, 7/2.0 = 3.5, floor division and modulo), string
 * comparison when an operand is not a number, lazy && || ?:.
 */
type Node =
  | { t: 'val'; v: Val }
  | { t: 'parts'; parts: Part[] }
  | { t: 'un'; op: string; a: Node }
  | { t: 'bin'; op: string; a: Node; b: Node }
  | { t: 'tern'; c: Node; a: Node; b: Node }
  | { t: 'fn'; name: string; args: Node[] };

/** Binary operators from lowest to highest precedence. */
const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['in', 'ni'], ['eq', 'ne'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
const SYMBOLS = ['**', '||', '&&', '==', '!=', '<=', '>=', '<<', '>>', '|', '^', '&', '<', '>', '+', '-', '*', '/', '%', '!', '~', '?', ':', '(', ')', ','];

class ExprParser {
  private i = 0;
  constructor(private readonly src: string) {}

  private skip(): void {
    while (this.i < this.src.length && /\s/.test(this.src[this.i]!)) this.i++;
  }

  private peekOp(): string | undefined {
    this.skip();
    const rest = this.src.slice(this.i);
    const word = /^(eq|ne|in|ni)(?![A-Za-z0-9_])/.exec(rest);
    if (word) return word[1];
    return SYMBOLS.find((s) => rest.startsWith(s));
  }

  private fail(msg?: string): never {
    throw new TclError(msg ?? `syntax error in expression "${this.src}"`);
  }

  parse(): Node {
    const n = this.ternary();
    this.skip();
    if (this.i < this.src.length) this.fail();
    return n;
  }

  private ternary(): Node {
    const c = this.binary(0);
    if (this.peekOp() !== '?') return c;
    this.i++;
    const a = this.ternary();
    if (this.peekOp() !== ':') this.fail();
    this.i++;
    const b = this.ternary();
    return { t: 'tern', c, a, b };
  }

  private binary(level: number): Node {
    if (level >= LEVELS.length) return this.power();
    let a = this.binary(level + 1);
    for (;;) {
      const op = this.peekOp();
      if (!op || !LEVELS[level]!.includes(op)) return a;
      this.i += op.length;
      a = { t: 'bin', op, a, b: this.binary(level + 1) };
    }
  }

  private power(): Node {
    const a = this.unary();
    if (this.peekOp() !== '**') return a;
    this.i += 2;
    return { t: 'bin', op: '**', a, b: this.power() };
  }

  private unary(): Node {
    const op = this.peekOp();
    if (op === '-' || op === '+' || op === '!' || op === '~') {
      this.i++;
      return { t: 'un', op, a: this.unary() };
    }
    return this.primary();
  }

  private primary(): Node {
    this.skip();
    const { src } = this;
    const c = src[this.i];
    if (c === undefined) this.fail(`missing operand at _@_ in expression "${src}"`);
    if (c === '(') {
      this.i++;
      const n = this.ternary();
      if (this.peekOp() !== ')') this.fail();
      this.i++;
      return n;
    }
    if (c === '$' || c === '[' || c === '"') {
      const r = scanOperand(src, this.i);
      this.i = r.end;
      return { t: 'parts', parts: r.parts };
    }
    if (c === '{') {
      let depth = 1;
      let j = this.i + 1;
      while (j < src.length && depth > 0) {
        if (src[j] === '{') depth++;
        else if (src[j] === '}') depth--;
        j++;
      }
      if (depth > 0) this.fail('missing close-brace');
      const s = src.slice(this.i + 1, j - 1);
      this.i = j;
      return { t: 'val', v: { k: 'str', v: s } };
    }
    const num = /^(0x[0-9a-f]+|0o[0-7]+|0b[01]+|\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)/i.exec(src.slice(this.i));
    if (num) {
      this.i += num[0].length;
      return { t: 'val', v: parseNumber(num[0])! };
    }
    const word = /^[A-Za-z_][A-Za-z0-9_:]*/.exec(src.slice(this.i));
    if (word) {
      this.i += word[0].length;
      if (this.peekOp() === '(') return this.call(word[0]);
      if (/^(inf|nan)$/i.test(word[0])) return { t: 'val', v: parseNumber(word[0])! };
      if (BOOLEAN_WORD.test(word[0])) return { t: 'val', v: { k: 'str', v: word[0] } };
      this.fail(`invalid bareword "${word[0]}"\nin expression "${this.src}";\nshould be "$${word[0]}" or "{${word[0]}}" or "${word[0]}(...)" or ...`);
    }
    this.fail();
  }

  private call(name: string): Node {
    this.i++; // (
    const args: Node[] = [];
    if (this.peekOp() === ')') {
      this.i++;
      return { t: 'fn', name, args };
    }
    for (;;) {
      args.push(this.ternary());
      const op = this.peekOp();
      this.i++;
      if (op === ')') return { t: 'fn', name, args };
      if (op !== ',') this.fail();
    }
  }
}

const cache = new Map<string, Node>();

function parseExpr(src: string): Node {
  let n = cache.get(src);
  if (!n) {
    n = new ExprParser(src).parse();
    if (cache.size > 2000) cache.clear();
    cache.set(src, n);
  }
  return n;
}

const asVal = (s: string): Val => parseNumber(s) ?? { k: 'str', v: s };

function num(v: Val, op: string): Num {
  if (v.k !== 'str') return v;
  throw new TclError(`can't use ${v.v === '' ? 'empty string' : 'non-numeric string'} as operand of "${op}"`);
}

function int(v: Val, op: string): bigint {
  const n = num(v, op);
  if (n.k === 'int') return n.v;
  throw new TclError(`can't use floating-point value as operand of "${op}"`);
}

const bool = (v: Val): boolean => (v.k === 'str' ? toBool(v.v) : v.k === 'int' ? v.v !== 0n : v.v !== 0);
const I = (b: boolean | bigint): Val => ({ k: 'int', v: typeof b === 'bigint' ? b : b ? 1n : 0n });

function arith(op: string, a: Num, b: Num): Num {
  if (a.k === 'int' && b.k === 'int') {
    const x = a.v;
    const y = b.v;
    switch (op) {
      case '+':
        return { k: 'int', v: x + y };
      case '-':
        return { k: 'int', v: x - y };
      case '*':
        return { k: 'int', v: x * y };
      case '/': {
        if (y === 0n) throw new TclError('divide by zero');
        let q = x / y;
        if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n;
        return { k: 'int', v: q };
      }
      case '**':
        if (y < 0n) {
          if (x === 0n) throw new TclError('exponentiation of zero by negative power');
          return { k: 'int', v: x === 1n ? 1n : x === -1n ? (y % 2n === 0n ? 1n : -1n) : 0n };
        }
        return { k: 'int', v: x ** y };
    }
  }
  const x = toDouble(a);
  const y = toDouble(b);
  const v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : Math.pow(x, y);
  return { k: 'dbl', v };
}

function compare(a: Val, b: Val): number {
  if (a.k !== 'str' && b.k !== 'str') {
    if (a.k === 'int' && b.k === 'int') return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
    const x = toDouble(a);
    const y = toDouble(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = numToString(a);
  const y = numToString(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function binary(op: string, a: Val, b: Val): Val {
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '**':
      return arith(op, num(a, op), num(b, op));
    case '%': {
      const x = int(a, op);
      const y = int(b, op);
      if (y === 0n) throw new TclError('divide by zero');
      let r = x % y;
      if (r !== 0n && r < 0n !== y < 0n) r += y;
      return I(r);
    }
    case '<<':
      return I(int(a, op) << int(b, op));
    case '>>':
      return I(int(a, op) >> int(b, op));
    case '&':
      return I(int(a, op) & int(b, op));
    case '|':
      return I(int(a, op) | int(b, op));
    case '^':
      return I(int(a, op) ^ int(b, op));
    case '<':
      return I(compare(a, b) < 0);
    case '>':
      return I(compare(a, b) > 0);
    case '<=':
      return I(compare(a, b) <= 0);
    case '>=':
      return I(compare(a, b) >= 0);
    case '==':
      return I(compare(a, b) === 0);
    case '!=':
      return I(compare(a, b) !== 0);
    case 'eq':
      return I(numToString(a) === numToString(b));
    case 'ne':
      return I(numToString(a) !== numToString(b));
    case 'in':
      return I(parseList(numToString(b)).includes(numToString(a)));
    case 'ni':
      return I(!parseList(numToString(b)).includes(numToString(a)));
  }
  throw new TclError(`unknown operator "${op}"`);
}

async function evaluate(n: Node, interp: Interp, base: number): Promise<Val> {
  switch (n.t) {
    case 'val':
      return n.v;
    case 'parts':
      return asVal(await interp.substParts(n.parts, base));
    case 'un': {
      const a = await evaluate(n.a, interp, base);
      if (n.op === '!') return I(!bool(a));
      if (n.op === '~') return I(~int(a, '~'));
      const x = num(a, n.op);
      if (n.op === '+') return x;
      return x.k === 'int' ? { k: 'int', v: -x.v } : { k: 'dbl', v: -x.v };
    }
    case 'tern':
      return evaluate(bool(await evaluate(n.c, interp, base)) ? n.a : n.b, interp, base);
    case 'fn':
      return callFunction(n.name, await Promise.all(n.args.map((a) => evaluate(a, interp, base))));
    case 'bin': {
      if (n.op === '&&') return I(bool(await evaluate(n.a, interp, base)) && bool(await evaluate(n.b, interp, base)));
      if (n.op === '||') return I(bool(await evaluate(n.a, interp, base)) || bool(await evaluate(n.b, interp, base)));
      return binary(n.op, await evaluate(n.a, interp, base), await evaluate(n.b, interp, base));
    }
  }
}

/** Evaluate an expression; `base` is the 0-based line its text starts on. */
export async function evalExpr(interp: Interp, src: string, base = 0): Promise<Val> {
  if (src.trim() === '') throw new TclError('empty expression');
  return evaluate(parseExpr(src), interp, base);
}

export async function exprString(interp: Interp, src: string, base = 0): Promise<string> {
  return numToString(await evalExpr(interp, src, base));
}

export async function exprBool(interp: Interp, src: string, base = 0): Promise<boolean> {
  return bool(await evalExpr(interp, src, base));
}
