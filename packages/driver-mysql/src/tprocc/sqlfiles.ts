import { sqlSet, type SqlSet as SqlFileSet } from '@sledge/sql';
import type { Flavour } from '../engine/flavour.js';
import { dropCommentLines, fillPlaceholders } from '../engine/sql-text.js';

/** Every SQL file the driver reads, under packages/sql/<engine>/tprocc/ (MariaDB: its own file, else MySQL's). */
export const SQL_FILES = [
  'admin.sql',
  'tables.sql',
  'indexes.sql',
  'procedures.sql',
  'drop.sql',
  'check.sql',
  'counters.sql',
  // Extras (packages/sql/README.md): tables.sql fragments, VU calls, noStoredProcs statements.
  'options.sql',
  'calls.sql',
  'client.sql',
] as const;
export type SqlFile = (typeof SQL_FILES)[number];

/**
 * A statement of a procedure script as the mysql client would send it:
 * without DELIMITER lines and without the custom delimiter at the end.
 */
export function stripDelimiter(piece: string): string {
  const lines = piece.split('\n').filter((l) => !/^\s*DELIMITER(\s+\S+)?\s*$/i.test(l));
  return lines.join('\n').trim().replace(/\s*\$\$$/, '').trim();
}

/**
 * The SQL files of one flavour, read once: named statements without their
 * comment lines, scripts without DELIMITER lines, {{placeholders}} filled.
 */
export type SqlSet = SqlFileSet<SqlFile>;

export function sqlFor(flavour: Flavour): SqlSet {
  return sqlSet<SqlFile>(flavour.engine, 'tprocc', {
    clean: dropCommentLines,
    piece: (s) => stripDelimiter(dropCommentLines(s)),
    fill: (sql, values) => fillPlaceholders(sql, values),
  });
}
