import { backslashAt } from './backslash.js';
import { TclError } from './errors.js';

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

/** Split a Tcl list into its elements (braces, quotes and backslashes as Tcl reads them). */
export function parseList(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  for (;;) {
    while (i < n && isSpace(s[i])) i++;
    if (i >= n) return out;
    if (s[i] === '{') {
      let depth = 1;
      let j = i + 1;
      while (j < n && depth > 0) {
        if (s[j] === '\\') j += 2;
        else {
          if (s[j] === '{') depth++;
          else if (s[j] === '}') depth--;
          j++;
        }
      }
      if (depth > 0) throw new TclError('unmatched open brace in list');
      if (j < n && !isSpace(s[j])) throw new TclError(`list element in braces followed by "${s.slice(j, j + 20)}" instead of space`);
      out.push(s.slice(i + 1, j - 1));
      i = j;
    } else if (s[i] === '"') {
      let j = i + 1;
      let text = '';
      while (j < n && s[j] !== '"') {
        if (s[j] === '\\') {
          const b = backslashAt(s, j);
          text += b.text;
          j += b.len;
        } else text += s[j++];
      }
      if (j >= n) throw new TclError('unmatched open quote in list');
      if (j + 1 < n && !isSpace(s[j + 1])) throw new TclError(`list element in quotes followed by "${s.slice(j + 1, j + 21)}" instead of space`);
      out.push(text);
      i = j + 1;
    } else {
      let text = '';
      while (i < n && !isSpace(s[i])) {
        if (s[i] === '\\') {
          const b = backslashAt(s, i);
          text += b.text;
          i += b.len;
        } else text += s[i++];
      }
      out.push(text);
    }
  }
}

/** Whether the braces of `s` pair up (a backslash escapes the character after it), so `{s}` is one literal word. */
export function bracesBalanced(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}

/** One element quoted so that parseList gives it back unchanged. */
export function quoteElement(s: string, first = false): string {
  if (s === '') return '{}';
  const special = /[\s{}[\]$";\\]/.test(s) || (first && s.startsWith('#'));
  if (!special) return s;
  if (bracesBalanced(s) && !s.endsWith('\\') && !/\\\n/.test(s)) return `{${s}}`;
  return s.replace(/[{}[\]$";\\\s]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : c === '\v' ? '\\v' : c === '\f' ? '\\f' : `\\${c}`));
}

/** A list's string form. */
export function formatList(items: readonly string[]): string {
  return items.map((s, i) => quoteElement(s, i === 0)).join(' ');
}

/** Tcl's index forms: N, end, end-N, end+N, N+M, N-M. */
export function parseIndex(s: string, length: number): number {
  const t = s.trim();
  let m = /^end(?:([+-])(\d+))?$/.exec(t);
  if (m) return length - 1 + (m[1] ? (m[1] === '-' ? -Number(m[2]) : Number(m[2])) : 0);
  m = /^([+-]?\d+)(?:([+-])(\d+))?$/.exec(t);
  if (m) return Number(m[1]) + (m[2] ? (m[2] === '-' ? -Number(m[3]) : Number(m[3])) : 0);
  throw new TclError(`bad index "${s}": must be integer?[+-]integer? or end?[+-]integer?`);
}
