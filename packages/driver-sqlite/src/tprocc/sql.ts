import { checkedStatements, sqlSet } from '@sledge/sql';

/** The engine SQL, packages/sql/sqlite/tprocc/, resolved and read once by @sledge/sql. */
const files = sqlSet('sqlite', 'tprocc');

/** A whole script (tables.sql, indexes.sql, drop.sql), run with db.exec(). */
export function sqlScript(file: string): string {
  return files.text(file);
}

/** The named-statement files the driver reads, and the statements each must define. */
export const NAMED_SQL_FILES = {
  /** The five transactions as statement sequences, names prefixed by the transaction. */
  'procedures.sql': [
    'neword_customer_warehouse',
    'neword_district',
    'neword_order',
    'neword_new_order',
    'neword_item',
    'neword_stock',
    'neword_order_line',
    'payment_warehouse',
    'payment_district',
    'payment_customer_ids_by_name',
    'payment_customer',
    'payment_history',
    'ostat_customer_ids_by_name',
    'ostat_customer',
    'ostat_last_order',
    'ostat_order_lines',
    'delivery_new_order',
    'delivery_order',
    'delivery_order_lines',
    'delivery_customer',
    'slev_stock_count',
  ],
  'admin.sql': ['server_version', 'schema_max_warehouse', 'schema_tproc_tables', 'schema_other_objects', 'file_tables'],
  'check.sql': ['check_indexed', 'check_row_counts', 'check_warehouse', 'check_districts'],
  'counters.sql': ['counters_nopm', 'analyze', 'after_run_checkpoint'],
} as const;

export type NamedSqlFile = keyof typeof NAMED_SQL_FILES;
export type StatementName<F extends NamedSqlFile> = (typeof NAMED_SQL_FILES)[F][number];

/** The statements of one named-SQL file, checked against the names the driver uses. */
export const namedSql = checkedStatements(files, NAMED_SQL_FILES);
