/** Tcl backslash sequences: one sequence at `src[i]` (the backslash) -> its text and length. */
const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

export function backslashAt(src: string, i: number): { text: string; len: number } {
  const c = src[i + 1];
  if (c === undefined) return { text: '\\', len: 1 };
  if (c === '\n') {
    // backslash-newline and the whitespace after it: one space
    let j = i + 2;
    while (j < src.length && (src[j] === ' ' || src[j] === '\t')) j++;
    return { text: ' ', len: j - i };
  }
  if (SIMPLE[c] !== undefined) return { text: SIMPLE[c]!, len: 2 };
  if (c === 'x' || c === 'u' || c === 'U') {
    const max = c === 'x' ? 2 : c === 'u' ? 4 : 8;
    let j = i + 2;
    while (j < src.length && j - (i + 2) < max && /[0-9a-fA-F]/.test(src[j]!)) j++;
    if (j === i + 2) return { text: c, len: 2 };
    return { text: String.fromCodePoint(parseInt(src.slice(i + 2, j), 16)), len: j - i };
  }
  if (/[0-7]/.test(c)) {
    let j = i + 1;
    while (j < src.length && j - (i + 1) < 3 && /[0-7]/.test(src[j]!)) j++;
    return { text: String.fromCharCode(parseInt(src.slice(i + 1, j), 8) & 0xff), len: j - i };
  }
  return { text: c, len: 2 };
}

/** Every backslash sequence in a string replaced (subst -nocommands -novariables). */
export function unescape(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; ) {
    if (s[i] === '\\') {
      const b = backslashAt(s, i);
      out += b.text;
      i += b.len;
    } else out += s[i++];
  }
  return out;
}
