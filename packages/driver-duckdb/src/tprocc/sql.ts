import { checkedStatements, sqlSet } from '@sledge/sql';

/** The TPROC-C SQL, packages/sql/duckdb/tprocc/, resolved and read once by @sledge/sql. */
const files = sqlSet('duckdb', 'tprocc');

/** Scripts run statement by statement. */
export type TproccScript = 'tables.sql' | 'keys.sql' | 'statistics.sql' | 'drop.sql';

export function tproccScript(file: TproccScript): string {
  return files.text(file);
}

/** The named-statement files the driver reads, and the statements each must define. */
export const TPROCC_NAMED_SQL = {
  'admin.sql': [
    'server_version',
    'schema_tables',
    'file_tables',
    'schema_other_objects',
    'schema_max_warehouse',
    'counters_nopm',
    'check_indexed',
    'check_row_counts',
    'check_warehouse',
    'check_districts',
  ],
} as const;

/** The statements of one named file, checked once against the names the driver uses. */
export const tproccSql = checkedStatements(files, TPROCC_NAMED_SQL);
