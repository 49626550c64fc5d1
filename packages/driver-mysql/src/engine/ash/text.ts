import { normaliseSqlText, sqlIdOf, vuFromName, type SqlDialect } from '@sledge/core';

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
 * and sledge_role=vu<n>[~<tag>] | admin | loader | ash. Returns the program
 * shown (sledge-vu-<n>[~<tag>], sledge-admin ...) and the VU position: with
 * the job's `vuTag` only a role carrying that tag is a VU (core vuFromName).
 */
export function sledgeProgram(programName: string | null, role: string | null, vuTag?: string): { program?: string; vu?: number } {
  if (role) {
    if (/^vu\d+/.test(role)) {
      const program = `sledge-${role.replace(/^vu/, 'vu-')}`;
      const vu = vuFromName(program, vuTag);
      return vu === undefined ? { program } : { program, vu };
    }
    return { program: `${programName ?? 'sledge'}-${role}` };
  }
  return programName ? { program: programName } : {};
}
