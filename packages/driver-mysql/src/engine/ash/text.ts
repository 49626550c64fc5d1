import { normaliseSqlText, sqlIdOf, type SqlDialect } from '@sledge/core';

export { SQL_TEXT_MAX, truncateSql } from '@sledge/core';

/** MySQL/MariaDB text: `-- ` and `#` comments, '...' and "..." literals with backslash escapes (either may be cut open at the end), ? markers. */
const MYSQL: SqlDialect = {
  lineComment: /(--\s|#)[^\n]*/g,
  literal: /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"/g,
  openLiteral: /['"][\s\S]*$/,
};

/** Statement text in a comparable form, for an id when the server gives no digest (process-list mode). */
export const normaliseSql = (text: string): string => normaliseSqlText(text, MYSQL);

/** 16 hex digits of the md5 of the normalised text. */
export const sqlTextId = (text: string): string => sqlIdOf(normaliseSql(text));

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
