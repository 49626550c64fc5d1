import { checkedStatements, sqlSet } from '@sledge/sql';

/** The TPROC-H SQL, packages/sql/sqlite/tproch/, resolved and read once by @sledge/sql. */
const files = sqlSet('sqlite', 'tproch');

/** Scripts run whole with db.exec(). */
export type TprochScript = 'tables.sql' | 'keys.sql' | 'statistics.sql' | 'drop.sql';

export function tprochScript(file: TprochScript): string {
  return files.text(file);
}

/** The named-statement files the driver reads, and the statements each must define. */
export const TPROCH_NAMED_SQL = {
  'admin.sql': ['server_version', 'schema_tables', 'schema_suppliers', 'schema_other_objects', 'row_counts', 'file_tables'],
  'refresh.sql': ['rf1_order', 'rf1_lineitem', 'rf2_lineitem', 'rf2_order'],
} as const;


/** The statements of one named file, checked once against the names the driver uses. */
export const tprochSql = checkedStatements(files, TPROCH_NAMED_SQL);
