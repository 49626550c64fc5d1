import type { ScriptValue } from './values.js';
import { FUNCTION_ARITY } from './arity.js';

/**
 * pgbench's expression language (the `\set` and `\if` argument), parsed to a
 * tree. Written from pgbench's documentation: integer and double constants,
 * true/false/null, `:variables`, the operators below (lowest precedence first),
 * CASE and function calls.
 *
 *   OR · AND · NOT · IS [NOT] NULL|TRUE|FALSE, ISNULL, NOTNULL ·
 *   = <> != < <= > >= (not chained) · | # & << >> · + - · * / % · unary - + ~
 */
export type Expr =
  | { k: 'lit'; v: ScriptValue }
  | { k: 'var'; name: string; col: number }
  | { k: 'un'; op: '-' | '+' | '~' | 'not'; a: Expr; col: number }
  | { k: 'bin'; op: string; a: Expr; b: Expr; col: number }
  | { k: 'is'; a: Expr; what: 'null' | 'true' | 'false'; not: boolean; col: number }
  | { k: 'case'; base: Expr | undefined; whens: [Expr, Expr][]; otherwise: Expr | undefined; col: number }
  | { k: 'fn'; name: string; args: Expr[]; col: number };

type Tok =
  | { t: 'int'; v: bigint; col: number }
  | { t: 'num'; v: number; col: number }
  | { t: 'id'; v: string; col: number }
  | { t: 'var'; v: string; col: number }
  | { t: 'op'; v: string; col: number }
  | { t: 'end'; col: number };

/** Reports a syntax error at a 0-based offset of the expression text. */
export type ExprFail = (offset: number, message: string) => never;

const OPS = ['<>', '!=', '<=', '>=', '<<', '>>', '=', '<', '>', '+', '-', '*', '/', '%', '|', '#', '&', '~', '(', ')', ','];

function lex(src: string, fail: ExprFail): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    const start = i;
    const num = /^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      const text = num[0];
      i += text.length;
      if (/[.eE]/.test(text)) out.push({ t: 'num', v: Number(text), col: start });
      else {
        const v = BigInt(text);
        if (v > (1n << 63n)) fail(start, `integer constant ${text} is out of range`);
        out.push({ t: 'int', v, col: start });
      }
      continue;
    }
    if (c === ':') {
      const m = /^:([A-Za-z0-9_\u0080-\uffff]+)/.exec(src.slice(i));
      if (!m) fail(start, 'expected a variable name after ":"');
      out.push({ t: 'var', v: m[1]!, col: start });
      i += m[0].length;
      continue;
    }
    const id = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0].toLowerCase(), col: start });
      i += id[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) fail(start, `unexpected character "${c}"`);
    out.push({ t: 'op', v: op, col: start });
    i += op.length;
  }
  out.push({ t: 'end', col: src.length });
  return out;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'is', 'isnull', 'notnull', 'case', 'when', 'then', 'else', 'end', 'true', 'false', 'null']);

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[], private readonly fail: ExprFail) {}

  private peek(): Tok { return this.toks[this.i]!; }
  private isOp(v: string): boolean { const t = this.peek(); return t.t === 'op' && t.v === v; }
  private isKw(v: string): boolean { const t = this.peek(); return t.t === 'id' && t.v === v; }
  private take(): Tok { return this.toks[this.i++]!; }
  private expectOp(v: string): void {
    if (!this.isOp(v)) this.fail(this.peek().col, `expected "${v}"`);
    this.i++;
  }
  private expectKw(v: string): void {
    if (!this.isKw(v)) this.fail(this.peek().col, `expected ${v.toUpperCase()}`);
    this.i++;
  }

  all(): Expr {
    if (this.peek().t === 'end') this.fail(0, 'missing expression');
    const e = this.or();
    const t = this.peek();
    if (t.t !== 'end') this.fail(t.col, 'unexpected text after the expression');
    return e;
  }

  private or(): Expr {
    let a = this.and();
    while (this.isKw('or')) { const col = this.take().col; a = { k: 'bin', op: 'or', a, b: this.and(), col }; }
    return a;
  }
  private and(): Expr {
    let a = this.not();
    while (this.isKw('and')) { const col = this.take().col; a = { k: 'bin', op: 'and', a, b: this.not(), col }; }
    return a;
  }
  private not(): Expr {
    if (this.isKw('not')) { const col = this.take().col; return { k: 'un', op: 'not', a: this.not(), col }; }
    return this.is();
  }
  private is(): Expr {
    const a = this.cmp();
    const t = this.peek();
    if (t.t === 'id' && (t.v === 'isnull' || t.v === 'notnull')) {
      this.i++;
      return { k: 'is', a, what: 'null', not: t.v === 'notnull', col: t.col };
    }
    if (t.t === 'id' && t.v === 'is') {
      this.i++;
      const not = this.isKw('not');
      if (not) this.i++;
      const w = this.peek();
      if (w.t !== 'id' || (w.v !== 'null' && w.v !== 'true' && w.v !== 'false')) this.fail(w.col, 'expected NULL, TRUE or FALSE after IS');
      this.i++;
      return { k: 'is', a, what: w.v as 'null' | 'true' | 'false', not, col: t.col };
    }
    return a;
  }
  private cmp(): Expr {
    const a = this.bits();
    const t = this.peek();
    if (t.t === 'op' && ['=', '<>', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      const e: Expr = { k: 'bin', op: t.v === '!=' ? '<>' : t.v, a, b: this.bits(), col: t.col };
      const n = this.peek();
      if (n.t === 'op' && ['=', '<>', '!=', '<', '<=', '>', '>='].includes(n.v)) this.fail(n.col, 'comparison operators cannot be chained');
      return e;
    }
    return a;
  }
  private bits(): Expr {
    let a = this.add();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || !['|', '#', '&', '<<', '>>'].includes(t.v)) return a;
      this.i++;
      a = { k: 'bin', op: t.v, a, b: this.add(), col: t.col };
    }
  }
  private add(): Expr {
    let a = this.mul();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || (t.v !== '+' && t.v !== '-')) return a;
      this.i++;
      a = { k: 'bin', op: t.v, a, b: this.mul(), col: t.col };
    }
  }
  private mul(): Expr {
    let a = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || !['*', '/', '%'].includes(t.v)) return a;
      this.i++;
      a = { k: 'bin', op: t.v, a, b: this.unary(), col: t.col };
    }
  }
  private unary(): Expr {
    const t = this.peek();
    if (t.t === 'op' && (t.v === '-' || t.v === '+' || t.v === '~')) {
      this.i++;
      const next = this.peek();
      // -9223372036854775808 is a constant, as in pgbench
      if (t.v === '-' && next.t === 'int') { this.i++; return { k: 'lit', v: -next.v }; }
      return { k: 'un', op: t.v, a: this.unary(), col: t.col };
    }
    return this.primary();
  }
  private primary(): Expr {
    const t = this.take();
    switch (t.t) {
      case 'int':
        if (t.v > (1n << 63n) - 1n) this.fail(t.col, 'bigint out of range');
        return { k: 'lit', v: t.v };
      case 'num': return { k: 'lit', v: t.v };
      case 'var': return { k: 'var', name: t.v, col: t.col };
      case 'op':
        if (t.v === '(') { const e = this.or(); this.expectOp(')'); return e; }
        return this.fail(t.col, `unexpected "${t.v}"`);
      case 'end': return this.fail(t.col, 'unexpected end of expression');
      case 'id': return this.word(t);
    }
  }
  private word(t: Tok & { t: 'id' }): Expr {
    if (t.v === 'true') return { k: 'lit', v: true };
    if (t.v === 'false') return { k: 'lit', v: false };
    if (t.v === 'null') return { k: 'lit', v: null };
    if (t.v === 'case') return this.caseExpr(t.col);
    if (KEYWORDS.has(t.v)) return this.fail(t.col, `unexpected ${t.v.toUpperCase()}`);
    const arity = FUNCTION_ARITY[t.v];
    if (!arity) return this.fail(t.col, `unknown function "${t.v}"`);
    this.expectOp('(');
    const args: Expr[] = [];
    if (!this.isOp(')')) {
      args.push(this.or());
      while (this.isOp(',')) { this.i++; args.push(this.or()); }
    }
    this.expectOp(')');
    const [min, max] = arity;
    if (args.length < min || args.length > max) {
      const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      this.fail(t.col, `${t.v}() takes ${want} argument(s), not ${args.length}`);
    }
    return { k: 'fn', name: t.v, args, col: t.col };
  }
  private caseExpr(col: number): Expr {
    const base = this.isKw('when') ? undefined : this.or();
    const whens: [Expr, Expr][] = [];
    while (this.isKw('when')) {
      this.i++;
      const cond = this.or();
      this.expectKw('then');
      whens.push([cond, this.or()]);
    }
    if (whens.length === 0) this.fail(this.peek().col, 'CASE needs at least one WHEN');
    let otherwise: Expr | undefined;
    if (this.isKw('else')) { this.i++; otherwise = this.or(); }
    this.expectKw('end');
    return { k: 'case', base, whens, otherwise, col };
  }
}

/** Parse one expression; `fail` receives 0-based offsets into `src`. */
export function parseExpr(src: string, fail: ExprFail): Expr {
  return new Parser(lex(src, fail), fail).all();
}
