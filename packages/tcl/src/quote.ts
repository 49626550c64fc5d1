import { bracesBalanced } from './lists.js';

/** Characters that end a word or start a substitution in a Tcl script ("#" starts a comment where a command starts). */
const SPECIAL = /[\s{}[\]$";\\#]/;
/** Control characters (C0 and DEL): never written raw (a brace would keep a newline literal, but the script would span lines). */
const isControl = (code: number) => code < 0x20 || code === 0x7f;
const hasControl = (s: string) => {
  for (let k = 0; k < s.length; k++) if (isControl(s.charCodeAt(k))) return true;
  return false;
};
const ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/**
 * `s` as one word of a Tcl script that reads back as exactly `s`: no
 * variable or command substitution, no word or command boundary, one line.
 * Every value Sledge writes into a Tcl script goes through it (savescript's
 * driver settings, customscript's masked lines).
 *
 * A plain word stays as is (`quoted`: in double quotes, as HammerDB writes
 * its settings: `set host "db1"`); a word with specials is braced when
 * braces keep it literal (balanced, no trailing backslash, no control
 * character); else each special is backslash-escaped and each control
 * character written as \n, \t, \r or \uXXXX (four digits: Tcl reads at
 * most four).
 */
export function tclQuote(s: string, style: 'bare' | 'quoted' = 'bare'): string {
  if (s === '') return style === 'quoted' ? '""' : '{}';
  const control = hasControl(s);
  if (!control && !SPECIAL.test(s)) return style === 'quoted' ? `"${s}"` : s;
  if (!control && bracesBalanced(s) && !s.endsWith('\\')) return `{${s}}`;
  let out = '';
  for (const c of s) {
    if (ESCAPES[c] !== undefined) out += ESCAPES[c];
    else if (isControl(c.charCodeAt(0))) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else if (SPECIAL.test(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}
