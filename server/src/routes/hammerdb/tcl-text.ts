import { huddle } from './reply.js';

/**
 * How HammerDB's CLI prints values: Tcl lists and dicts in text format
 * (`puts $dict`, `huddle get_stripped`), pretty JSON (`huddle jsondump`,
 * two-space indent, every leaf a string) in JSON format.
 */

/** One Tcl list element: as is when plain, braced when it holds spaces or specials, backslash-quoted when braces would not do. */
export function tclQuote(s: string): string {
  if (s === '') return '{}';
  if (!/[\s{}[\]$"\\;]/.test(s) && !s.startsWith('#')) return s;
  let depth = 0;
  let balanced = true;
  for (const c of s) {
    if (c === '{') depth++;
    else if (c === '}' && --depth < 0) balanced = false;
  }
  if (balanced && depth === 0 && !s.endsWith('\\')) return `{${s}}`;
  return s.replace(/[\s{}[\]$"\\;]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\${c}`));
}

/** A Tcl list of strings. */
export const tclList = (items: readonly string[]): string => items.map(tclQuote).join(' ');

/** A Tcl dict (nested objects become nested dicts, arrays lists). */
export function tclValue(v: unknown): string {
  if (Array.isArray(v)) return tclList(v.map((x) => (x !== null && typeof x === 'object' ? tclValue(x) : String(x ?? ''))));
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${tclQuote(k)} ${tclQuote(x !== null && typeof x === 'object' ? tclValue(x) : String(x ?? ''))}`)
      .join(' ');
  }
  return String(v ?? '');
}

/** `huddle jsondump`: pretty JSON, two-space indent, every leaf a string. */
export const huddleDump = (v: unknown): string => JSON.stringify(huddle(v), null, 2);
