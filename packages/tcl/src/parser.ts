import { backslashAt } from './backslash.js';
import { TclError } from './errors.js';

/**
 * Tcl's twelve rules, as a parser from script text to commands and words.
 * Words in braces are kept literal; other words become parts (literal text,
 * variable references and command substitutions) substituted when run.
 * Line numbers are 0-based offsets from the start of the parsed text.
 */
export type Part = { t: 'lit'; s: string } | { t: 'var'; name: string; index?: Part[] } | { t: 'cmd'; script: string; line: number };

export interface Word {
  braced: boolean;
  /** The literal text of a braced word. */
  text: string;
  parts: Part[];
  line: number;
  /** `{*}word`: its list elements become separate words. */
  expand: boolean;
}

export interface ParsedCommand {
  words: Word[];
  line: number;
  text: string;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
const isNameChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);

class Parser {
  private readonly newlines: number[] = [];

  constructor(private readonly src: string) {
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') this.newlines.push(i);
  }

  lineOf(pos: number): number {
    let lo = 0;
    let hi = this.newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.newlines[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  fail(message: string, pos: number): never {
    const e = new TclError(message);
    e.line = this.lineOf(pos);
    throw e;
  }

  /** Commands from `pos` to the end, or (nested) to the `]` that closes a command substitution. */
  commands(pos: number, nested: boolean): { commands: ParsedCommand[]; end: number } {
    const { src } = this;
    const commands: ParsedCommand[] = [];
    let i = pos;
    for (;;) {
      while (i < src.length && (isBlank(src[i]) || src[i] === '\n' || src[i] === ';' || (src[i] === '\\' && src[i + 1] === '\n'))) i += src[i] === '\\' ? 2 : 1;
      if (i >= src.length || (nested && src[i] === ']')) return { commands, end: i };
      if (src[i] === '#') {
        while (i < src.length && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
        continue;
      }
      const start = i;
      const words: Word[] = [];
      for (;;) {
        while (i < src.length && (isBlank(src[i]) || (src[i] === '\\' && src[i + 1] === '\n'))) i += src[i] === '\\' ? backslashAt(src, i).len : 1;
        const c = src[i];
        if (c === undefined || c === '\n' || c === ';' || (nested && c === ']')) break;
        const w = this.word(i, nested);
        words.push(w.word);
        i = w.end;
      }
      if (words.length) commands.push({ words, line: this.lineOf(start), text: src.slice(start, i).trimEnd() });
    }
  }

  private word(pos: number, nested: boolean): { word: Word; end: number } {
    const { src } = this;
    let i = pos;
    let expand = false;
    if (src.startsWith('{*}', i) && i + 3 < src.length && !isBlank(src[i + 3]) && src[i + 3] !== '\n' && src[i + 3] !== ';') {
      expand = true;
      i += 3;
    }
    const line = this.lineOf(i);
    const atEnd = (j: number) => j >= src.length || isBlank(src[j]) || src[j] === '\n' || src[j] === ';' || (nested && src[j] === ']') || (src[j] === '\\' && src[j + 1] === '\n');
    if (src[i] === '{') {
      let depth = 1;
      let j = i + 1;
      while (j < src.length && depth > 0) {
        if (src[j] === '\\') j += 2;
        else {
          if (src[j] === '{') depth++;
          else if (src[j] === '}') depth--;
          j++;
        }
      }
      if (depth > 0) this.fail('missing close-brace', i);
      if (!atEnd(j)) this.fail('extra characters after close-brace', j);
      const text = src.slice(i + 1, j - 1).replace(/\\\n[ \t]*/g, ' ');
      return { word: { braced: true, text, parts: [], line, expand }, end: j };
    }
    if (src[i] === '"') {
      const r = this.parts(i + 1, (c) => c === '"');
      if (src[r.end] !== '"') this.fail('missing "', i);
      if (!atEnd(r.end + 1)) this.fail('extra characters after close-quote', r.end + 1);
      return { word: { braced: false, text: '', parts: r.parts, line, expand }, end: r.end + 1 };
    }
    const r = this.parts(i, (c, j) => atEnd(j) || (c === '\\' && src[j + 1] === '\n'));
    return { word: { braced: false, text: '', parts: r.parts, line, expand }, end: r.end };
  }

  /** Substitution parts until `stop` says the word ends. */
  parts(pos: number, stop: (c: string, j: number) => boolean): { parts: Part[]; end: number } {
    const { src } = this;
    const parts: Part[] = [];
    let lit = '';
    const flush = () => {
      if (lit) parts.push({ t: 'lit', s: lit });
      lit = '';
    };
    let i = pos;
    while (i < src.length && !stop(src[i]!, i)) {
      const c = src[i]!;
      if (c === '\\') {
        const b = backslashAt(src, i);
        lit += b.text;
        i += b.len;
      } else if (c === '[') {
        const r = this.commands(i + 1, true);
        if (src[r.end] !== ']') this.fail('missing close-bracket', i);
        flush();
        parts.push({ t: 'cmd', script: src.slice(i + 1, r.end), line: this.lineOf(i + 1) });
        i = r.end + 1;
      } else if (c === '$') {
        const v = this.variable(i);
        if (v.part) {
          flush();
          parts.push(v.part);
        } else lit += '$';
        i = v.end;
      } else lit += src[i++];
    }
    flush();
    return { parts, end: i };
  }

  variable(pos: number): { part?: Part; end: number } {
    const { src } = this;
    if (src[pos + 1] === '{') {
      const close = src.indexOf('}', pos + 2);
      if (close < 0) this.fail('missing close-brace for variable name', pos);
      return { part: { t: 'var', name: src.slice(pos + 2, close) }, end: close + 1 };
    }
    let j = pos + 1;
    for (;;) {
      if (isNameChar(src[j])) j++;
      else if (src[j] === ':' && src[j + 1] === ':') {
        j += 2;
        while (src[j] === ':') j++;
      } else break;
    }
    if (j === pos + 1) return { end: pos + 1 };
    const name = src.slice(pos + 1, j);
    if (src[j] !== '(') return { part: { t: 'var', name }, end: j };
    const r = this.parts(j + 1, (c) => c === ')');
    if (src[r.end] !== ')') this.fail('missing )', j);
    return { part: { t: 'var', name, index: r.parts }, end: r.end + 1 };
  }
}

const cache = new Map<string, ParsedCommand[]>();

/** The commands of a script (cached: loop and proc bodies are parsed once). */
export function parseScript(src: string): ParsedCommand[] {
  const hit = cache.get(src);
  if (hit) return hit;
  const p = new Parser(src);
  const { commands, end } = p.commands(0, false);
  if (end < src.length) p.fail(`extra characters after command`, end);
  if (cache.size > 2000) cache.clear();
  cache.set(src, commands);
  return commands;
}

/** The parts of a string for `subst` (or a quoted word's content). */
export function parseParts(src: string): Part[] {
  return new Parser(src).parts(0, () => false).parts;
}

/** Whether a script is complete (the REPL reads more lines until it is). */
export function isComplete(src: string): boolean {
  try {
    new Parser(src).commands(0, false);
    return true;
  } catch (e) {
    return !(e instanceof TclError && /^missing/.test(e.message));
  }
}

/** For `expr`: a `$var`, `[cmd]` or `"quoted"` operand at `pos` -> its parts and where it ends. */
export function scanOperand(src: string, pos: number): { parts: Part[]; end: number } {
  const p = new Parser(src);
  const c = src[pos];
  if (c === '"') {
    const r = p.parts(pos + 1, (ch) => ch === '"');
    if (src[r.end] !== '"') p.fail('missing "', pos);
    return { parts: r.parts, end: r.end + 1 };
  }
  if (c === '[') {
    const r = p.commands(pos + 1, true);
    if (src[r.end] !== ']') p.fail('missing close-bracket', pos);
    return { parts: [{ t: 'cmd', script: src.slice(pos + 1, r.end), line: p.lineOf(pos + 1) }], end: r.end + 1 };
  }
  const v = p.variable(pos);
  return { parts: v.part ? [v.part] : [{ t: 'lit', s: '$' }], end: v.end };
}
