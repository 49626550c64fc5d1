import { quoteElement } from '@sledge/tcl';
import { huddle } from './reply.js';

/**
 * How HammerDB's CLI prints values: Tcl lists and dicts in text format
 * (`puts $dict`, `huddle get_stripped`), pretty JSON (`huddle jsondump`,
 * two-space indent, every leaf a string) in JSON format.
 */

/** One element of a printed Tcl list (as `puts` shows it): as is when plain, braced when it holds spaces or specials, backslash-quoted when braces would not do. */
const element = (s: string): string => quoteElement(s, true);

/** A Tcl list of strings. */
export const tclList = (items: readonly string[]): string => items.map(element).join(' ');

/** A Tcl dict (nested objects become nested dicts, arrays lists). */
export function tclValue(v: unknown): string {
  if (Array.isArray(v)) return tclList(v.map((x) => (x !== null && typeof x === 'object' ? tclValue(x) : String(x ?? ''))));
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${element(k)} ${element(x !== null && typeof x === 'object' ? tclValue(x) : String(x ?? ''))}`)
      .join(' ');
  }
  return String(v ?? '');
}

/** `huddle jsondump`: pretty JSON, two-space indent, every leaf a string. */
export const huddleDump = (v: unknown): string => JSON.stringify(huddle(v), null, 2);
