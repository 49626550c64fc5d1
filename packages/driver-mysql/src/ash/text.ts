import { createHash } from 'node:crypto';

/** Longest statement text kept with a sample. */
export const SQL_TEXT_MAX = 300;

/**
 * Statement text in a comparable form, for an id when the server gives no
 * digest (process-list mode): comments dropped, string/number literals and
 * ? markers as `?`, whitespace collapsed, lower case.
 */
export function normaliseSql(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(--\s|#)[^\n]*/g, ' ')
    .replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"/g, '?')
    .replace(/(?<![\w$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/g, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** 16 hex digits of the md5 of the normalised text. */
export function sqlTextId(text: string): string {
  return createHash('md5').update(normaliseSql(text)).digest('hex').slice(0, 16);
}

/** The text kept with a sample: whitespace collapsed, at most SQL_TEXT_MAX characters (… marks a cut). */
export function truncateSql(text: string, max = SQL_TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Sledge's MySQL sessions carry connection attributes program_name=sledge
 * and sledge_role=vu<n> | admin | loader | ash. Returns the program shown
 * (sledge-vu-<n>, sledge-admin ...) and the VU position.
 */
export function sledgeProgram(programName: string | null, role: string | null): { program?: string; vu?: number } {
  if (role) {
    const m = /^vu(\d+)$/.exec(role);
    if (m) return { program: `sledge-vu-${m[1]}`, vu: Number(m[1]) };
    return { program: `${programName ?? 'sledge'}-${role}` };
  }
  return programName ? { program: programName } : {};
}
