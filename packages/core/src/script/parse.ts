import { parseExpr, type Expr } from './expr.js';
import { ScriptSyntaxError, type ScriptPos } from './errors.js';

/**
 * pgbench's script language, parsed (written from pgbench's documentation).
 *
 * - An SQL command runs to the `;` that ends it (outside quotes, comments
 *   and dollar quotes), over as many lines as it takes; `\;` joins several
 *   statements into one command; `\gset [prefix]` or `\aset [prefix]` in
 *   place of the `;` stores the result row in variables.
 * - `:name` in SQL is a variable, sent as a bound parameter (never pasted
 *   into the text); `::` is a cast. Inside quotes nothing is a variable, and
 *   a name starts with a letter or `_` (so `a[1:2]` stays SQL).
 * - Meta-commands start a line with `\` and end with it (a `\` at the end
 *   of a line continues it): `\set`, `\sleep`, `\if`/`\elif`/`\else`/`\endif`,
 *   `\startpipeline`/`\endpipeline` (a pipeline: its statements go out
 *   without waiting, a Sync at the end; `\syncpipeline` inside one sends a
 *   Sync and the pipeline goes on; no `\gset`/`\aset` inside; engines
 *   without pipelines refuse them at validation). `\setshell` and `\shell` are refused: Sledge does not
 *   run shell commands for a script.
 */

/** Transaction control is recognised, so each engine runs it its own way (MariaDB has no `END`). */
export type SqlKind = 'begin' | 'commit' | 'rollback' | 'sql';

/** One statement: its text cut at each variable (parts.length === vars.length + 1). */
export interface SqlStatement {
  kind: SqlKind;
  parts: string[];
  vars: string[];
}

export type ScriptCommand =
  | { k: 'sql'; line: number; statements: SqlStatement[]; store?: { mode: 'gset' | 'aset'; prefix: string } }
  | { k: 'set'; line: number; name: string; expr: Expr }
  | { k: 'sleep'; line: number; arg: { v: number } | { name: string }; unit: 'us' | 'ms' | 's' }
  /** `if`/`elif`: `next` is the index of the following elif/else/endif; `end` of the endif. */
  | { k: 'if' | 'elif'; line: number; expr: Expr; next: number; end: number }
  | { k: 'else'; line: number; end: number }
  | { k: 'endif'; line: number }
  /** `\startpipeline`, `\syncpipeline` (a Sync inside the pipeline: the implicit transaction so far ends) or `\endpipeline`. */
  | { k: 'pipeline'; line: number; op: 'start' | 'sync' | 'end' };

export interface Script {
  name: string;
  commands: ScriptCommand[];
  /** Engine features the script needs; an engine without one refuses the script before the run. */
  features: { pipeline: boolean };
}

export interface ParseOptions {
  /** The input field that holds the script, for the error (e.g. `script.scripts[0].text`). */
  field?: string;
}

const NAME_START = /[A-Za-z_\u0080-\uffff]/;
const NAME_CHAR = /[A-Za-z0-9_\u0080-\uffff]/;

class ScriptParser {
  private i = 0;
  private readonly lineStarts: number[] = [0];
  readonly commands: ScriptCommand[] = [];
  private readonly open: { at: number; branches: number[]; sawElse: boolean; line: number; col: number }[] = [];
  pipeline = false;
  private inPipeline: ScriptPos | undefined;

  constructor(private readonly src: string, private readonly name: string, private readonly field: string | undefined) {
    for (let k = 0; k < src.length; k++) if (src[k] === '\n') this.lineStarts.push(k + 1);
  }

  pos(offset: number): ScriptPos {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }

  fail(offset: number, message: string): never {
    throw new ScriptSyntaxError(this.name, this.pos(offset), message, this.field);
  }

  run(): void {
    const s = this.src;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (/\s/.test(c)) { this.i++; continue; }
      if (s.startsWith('--', this.i)) { this.skipLine(); continue; }
      if (c === '\\') this.meta();
      else this.sql();
    }
    const open = this.open.at(-1);
    if (open) throw new ScriptSyntaxError(this.name, { line: open.line, column: open.col }, '\\if without a matching \\endif', this.field);
    if (this.inPipeline) throw new ScriptSyntaxError(this.name, this.inPipeline, '\\startpipeline without a matching \\endpipeline', this.field);
  }

  private skipLine(): void {
    const nl = this.src.indexOf('\n', this.i);
    this.i = nl < 0 ? this.src.length : nl + 1;
  }

  /** The meta-command at this.i: its name, and its argument text with the argument's offset. */
  private meta(): void {
    const start = this.i;
    let end = start;
    const s = this.src;
    while (end < s.length && s[end] !== '\n') end += s[end] === '\\' && s[end + 1] === '\n' ? 2 : s[end] === '\\' && s[end + 1] === '\r' && s[end + 2] === '\n' ? 3 : 1;
    this.i = end;
    // continuations become blanks of the same length, so offsets still map onto the source
    const text = s.slice(start, end).replace(/\\\r?\n/g, (m) => ' '.repeat(m.length));
    const m = /^\\([A-Za-z]*)/.exec(text)!;
    const name = m[1]!.toLowerCase();
    const argOffset = start + m[0].length;
    this.metaCommand(name, text.slice(m[0].length), argOffset, start);
  }

  private metaCommand(name: string, args: string, at: number, start: number): void {
    const line = this.pos(start).line;
    switch (name) {
      case 'set': return this.set(args, at, line);
      case 'sleep': return this.sleep(args, at, line);
      case 'if': case 'elif': return this.ifBranch(name, args, at, start, line);
      case 'else': case 'endif': this.noArgs(name, args, at); return this.branchEnd(name, start, line);
      case 'gset': case 'aset': return this.storeAfter(name, args, at, start);
      case 'startpipeline': case 'syncpipeline': case 'endpipeline':
        this.noArgs(name, args, at);
        return this.pipelineCmd(name === 'startpipeline' ? 'start' : name === 'syncpipeline' ? 'sync' : 'end', start, line);
      case 'setshell': case 'shell':
        return this.fail(start, `\\${name} runs a shell command on the client; Sledge does not run shell commands from scripts (compute the value with \\set)`);
      case '': return this.fail(start, 'a backslash must start a meta-command (\\set, \\sleep, \\if ...) or join statements (\\;)');
      default: return this.fail(start, `unknown meta-command \\${name}`);
    }
  }

  private noArgs(name: string, args: string, at: number): void {
    const extra = /\S/.exec(args);
    if (extra) this.fail(at + extra.index, `\\${name} takes no arguments`);
  }

  private set(args: string, at: number, line: number): void {
    const m = /^(\s+)(\S+)/.exec(args);
    if (!m) this.fail(at, '\\set needs a variable name and an expression');
    const nameAt = at + m[1]!.length;
    const name = m[2]!;
    if (!NAME_START.test(name[0]!) || ![...name].every((ch) => NAME_CHAR.test(ch))) this.fail(nameAt, `invalid variable name "${name}"`);
    const rest = args.slice(m[0].length);
    if (!/\S/.test(rest)) this.fail(nameAt + name.length, `\\set ${name} needs an expression`);
    const restAt = at + m[0].length;
    const expr = parseExpr(rest, (off, msg) => this.fail(restAt + off, msg));
    this.commands.push({ k: 'set', line, name, expr });
  }

  private sleep(args: string, at: number, line: number): void {
    const words = [...args.matchAll(/\S+/g)];
    if (words.length === 0) this.fail(at, '\\sleep needs a duration');
    if (words.length > 2) this.fail(at + words[2]!.index, '\\sleep takes a duration and an optional unit (us, ms, s)');
    const [d, u] = words;
    const unitText = u ? u[0].toLowerCase() : 's';
    if (unitText !== 'us' && unitText !== 'ms' && unitText !== 's') this.fail(at + u!.index, `unknown \\sleep unit "${u![0]}" (us, ms or s)`);
    const dt = d![0];
    let arg: { v: number } | { name: string };
    if (dt.startsWith(':')) {
      const nm = dt.slice(1);
      if (!nm || ![...nm].every((ch) => NAME_CHAR.test(ch))) this.fail(at + d!.index, `invalid variable "${dt}"`);
      arg = { name: nm };
    } else if (/^\d+$/.test(dt)) arg = { v: Number(dt) };
    else this.fail(at + d!.index, `\\sleep duration must be an integer or a :variable, not "${dt}"`);
    this.commands.push({ k: 'sleep', line, arg, unit: unitText });
  }

  private ifBranch(name: 'if' | 'elif', args: string, at: number, start: number, line: number): void {
    if (!/\S/.test(args)) this.fail(at, `\\${name} needs an expression`);
    const expr = parseExpr(args, (off, msg) => this.fail(at + off, msg));
    const idx = this.commands.length;
    if (name === 'if') {
      const p = this.pos(start);
      this.open.push({ at: idx, branches: [idx], sawElse: false, line: p.line, col: p.column });
    } else {
      const top = this.open.at(-1);
      if (!top) this.fail(start, '\\elif without a matching \\if');
      if (top.sawElse) this.fail(start, '\\elif after \\else');
      top.branches.push(idx);
    }
    this.commands.push({ k: name, line, expr, next: -1, end: -1 });
  }

  private branchEnd(name: 'else' | 'endif', start: number, line: number): void {
    const top = this.open.at(-1);
    if (!top) this.fail(start, `\\${name} without a matching \\if`);
    const idx = this.commands.length;
    if (name === 'else') {
      if (top.sawElse) this.fail(start, '\\else after \\else');
      top.sawElse = true;
      top.branches.push(idx);
      this.commands.push({ k: 'else', line, end: -1 });
      return;
    }
    this.commands.push({ k: 'endif', line });
    top.branches.push(idx);
    for (let b = 0; b < top.branches.length - 1; b++) {
      const cmd = this.commands[top.branches[b]!]!;
      if (cmd.k === 'if' || cmd.k === 'elif') { cmd.next = top.branches[b + 1]!; cmd.end = idx; }
      else if (cmd.k === 'else') cmd.end = idx;
    }
    this.open.pop();
  }

  private pipelineCmd(op: 'start' | 'sync' | 'end', at: number, line: number): void {
    if (op === 'start' && this.inPipeline) this.fail(at, '\\startpipeline inside a pipeline');
    if (op === 'end' && !this.inPipeline) this.fail(at, '\\endpipeline without \\startpipeline');
    // pgbench 17: a Sync belongs to a pipeline; outside one there is nothing to synchronise
    if (op === 'sync' && !this.inPipeline) this.fail(at, '\\syncpipeline outside a pipeline: put it between \\startpipeline and \\endpipeline');
    if (op !== 'sync') this.inPipeline = op === 'start' ? this.pos(at) : undefined;
    this.pipeline = true;
    this.commands.push({ k: 'pipeline', line, op });
  }

  private storePrefix(name: string, args: string, at: number): string {
    // as pgbench: a pipeline's results are not read until \endpipeline, too late for the commands after it
    if (this.inPipeline) this.fail(at - name.length - 1, `\\${name} is not allowed in a pipeline`);
    const words = [...args.matchAll(/\S+/g)];
    if (words.length > 1) this.fail(at + words[1]!.index, `\\${name} takes at most one argument (a variable prefix)`);
    const prefix = words[0]?.[0] ?? '';
    if (prefix && ![...prefix].every((ch) => NAME_CHAR.test(ch))) this.fail(at + words[0]!.index, `invalid variable prefix "${prefix}"`);
    return prefix;
  }

  /** A \gset or \aset on a line of its own: it belongs to the SQL command just before. */
  private storeAfter(name: 'gset' | 'aset', args: string, at: number, start: number): void {
    const prev = this.commands.at(-1);
    if (!prev || prev.k !== 'sql' || prev.store) this.fail(start, `\\${name} must follow an SQL command`);
    prev.store = { mode: name, prefix: this.storePrefix(name, args, at) };
  }

  /** One SQL command from this.i: statements joined by \; up to ; or \gset/\aset or the end. */
  private sql(): void {
    const startLine = this.pos(this.i).line;
    const statements: SqlStatement[] = [];
    const s = this.src;
    let parts: string[] = [];
    let vars: string[] = [];
    let buf = '';
    const endStatement = (): void => {
      parts.push(buf);
      const st = statement(parts, vars);
      if (st) statements.push(st);
      parts = [];
      vars = [];
      buf = '';
    };
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === ';') { this.i++; break; }
      if (c === '\\') {
        if (s[this.i + 1] === ';') { this.i += 2; endStatement(); continue; }
        const m = /^\\([A-Za-z]+)/.exec(s.slice(this.i, this.i + 40));
        const mname = m?.[1]?.toLowerCase();
        if (mname === 'gset' || mname === 'aset') {
          const start = this.i;
          const nl = s.indexOf('\n', start);
          const lineEnd = nl < 0 ? s.length : nl;
          const argAt = start + m![0].length;
          const prefix = this.storePrefix(mname, s.slice(argAt, lineEnd), argAt);
          this.i = lineEnd;
          endStatement();
          return this.pushSql(startLine, statements, { mode: mname, prefix }, start);
        }
        this.fail(this.i, `meta-command ${m ? `\\${m[1]}` : '\\'} inside an SQL command: end the command with ";" first`);
      }
      if (c === ':' && s[this.i + 1] === ':') { buf += '::'; this.i += 2; continue; }
      if (c === ':' && NAME_START.test(s[this.i + 1] ?? '')) {
        let e = this.i + 1;
        while (e < s.length && NAME_CHAR.test(s[e]!)) e++;
        parts.push(buf);
        vars.push(s.slice(this.i + 1, e));
        buf = '';
        this.i = e;
        continue;
      }
      const skip = this.quoted();
      if (skip > this.i) { buf += s.slice(this.i, skip); this.i = skip; continue; }
      buf += c;
      this.i++;
    }
    endStatement();
    this.pushSql(startLine, statements, undefined, this.i);
  }

  private pushSql(line: number, statements: SqlStatement[], store: { mode: 'gset' | 'aset'; prefix: string } | undefined, at: number): void {
    if (statements.length === 0) {
      if (store) this.fail(at, `\\${store.mode} must follow an SQL command`);
      return;
    }
    this.commands.push(store ? { k: 'sql', line, statements, store } : { k: 'sql', line, statements });
  }

  /** If a quote, comment or dollar quote starts at this.i, the offset just past it; else this.i. */
  private quoted(): number {
    const s = this.src;
    const i = this.i;
    const c = s[i]!;
    const close = (end: number, what: string): number => (end < 0 ? this.fail(i, `unterminated ${what}`) : end);
    if (c === "'" || c === '"' || c === '`') {
      let k = i + 1;
      for (;;) {
        k = close(s.indexOf(c, k), c === "'" ? 'quoted string' : 'quoted identifier');
        if (s[k + 1] === c) { k += 2; continue; }
        return k + 1;
      }
    }
    if (c === '-' && s[i + 1] === '-') { const nl = s.indexOf('\n', i); return nl < 0 ? s.length : nl; }
    if (c === '/' && s[i + 1] === '*') return close(s.indexOf('*/', i + 2), 'comment /* */') + 2;
    if (c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(s.slice(i, i + 64));
      if (m && !/[A-Za-z0-9_]/.test(s[i - 1] ?? '')) return close(s.indexOf(m[0], i + m[0].length), `dollar quote ${m[0]}`) + m[0].length;
    }
    return i;
  }
}

const TX = [
  { kind: 'begin' as const, re: /^(begin|start\s+transaction)(\s+(work|transaction))?$/i },
  { kind: 'commit' as const, re: /^(end|commit)(\s+(work|transaction))?$/i },
  { kind: 'rollback' as const, re: /^(rollback|abort)(\s+(work|transaction))?$/i },
];

function statement(parts: string[], vars: string[]): SqlStatement | undefined {
  const text = parts.join(' ').replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '').trim();
  if (!text && vars.length === 0) return undefined;
  const trimmed = parts.map((p, k) => (k === 0 ? p.trimStart() : p));
  trimmed[trimmed.length - 1] = trimmed[trimmed.length - 1]!.trimEnd();
  const kind = vars.length === 0 ? (TX.find((t) => t.re.test(text.replace(/\s+/g, ' ')))?.kind ?? 'sql') : 'sql';
  return { kind, parts: trimmed, vars };
}

/** Parse a pgbench script; a mistake is a ScriptSyntaxError (SLEDGE_E_VALIDATION) with the script's name, line and column. */
export function parseScript(name: string, text: string, opts: ParseOptions = {}): Script {
  const p = new ScriptParser(text, name, opts.field);
  p.run();
  return { name, commands: p.commands, features: { pipeline: p.pipeline } };
}

/** A statement's text for an engine, each variable replaced by the engine's placeholder for the n-th parameter (1-based). */
export function renderStatement(st: SqlStatement, placeholder: (n: number) => string): string {
  let out = st.parts[0]!;
  for (let k = 0; k < st.vars.length; k++) out += placeholder(k + 1) + st.parts[k + 1]!;
  return out;
}
