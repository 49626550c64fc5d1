import { sqlSet, type SqlSet } from '@sledge/sql';
import type { Flavour } from '../engine/flavour.js';
import { dropCommentLines, fillPlaceholders } from '../engine/sql-text.js';

/** Files of packages/sql/<engine>/tproch/ the driver reads (MariaDB: its own, else MySQL's). */
export type TprochSqlFile = 'admin.sql' | 'tables.sql' | 'keys.sql' | 'statistics.sql' | 'drop.sql' | 'refresh.sql';
export type TprochSqlSet = SqlSet<TprochSqlFile>;

/** One flavour's TPROC-H SQL: named statements without comment lines, {{placeholders}} filled. */
export function tprochSqlFor(flavour: Flavour): TprochSqlSet {
  return sqlSet<TprochSqlFile>(flavour.engine, 'tproch', {
    clean: dropCommentLines,
    piece: dropCommentLines,
    fill: (sql, values) => fillPlaceholders(sql, values),
  });
}
