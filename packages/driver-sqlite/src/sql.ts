import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql, requireSql } from '@sledge/core';

/**
 * The engine SQL lives in sql/sqlite/tprocc/ at the repository root. Walk up
 * from this module (src/ or dist/) until that directory exists.
 */
function findSqlDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'sql', 'sqlite', 'tprocc');
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`sql/sqlite/tprocc not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

let sqlDir: string | undefined;
export function sqliteSqlDir(): string {
  return (sqlDir ??= findSqlDir());
}

/** A whole script (tables.sql, indexes.sql, drop.sql), run with db.exec(). */
export function sqlScript(file: string): string {
  return readFileSync(join(sqliteSqlDir(), file), 'utf8');
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
  'admin.sql': ['server_version', 'schema_max_warehouse', 'schema_tproc_tables', 'schema_other_objects'],
  'check.sql': ['check_indexed', 'check_row_counts', 'check_warehouse', 'check_districts'],
  'counters.sql': ['counters_nopm', 'analyze', 'after_run_checkpoint'],
} as const;

export type NamedSqlFile = keyof typeof NAMED_SQL_FILES;
export type StatementName<F extends NamedSqlFile> = (typeof NAMED_SQL_FILES)[F][number];

const cache = new Map<string, Record<string, string>>();

/** The statements of one named-SQL file, checked against the names the driver uses. */
export function namedSql<F extends NamedSqlFile>(file: F): Record<StatementName<F>, string> {
  let set = cache.get(file);
  if (!set) {
    set = parseNamedSql(sqlScript(file));
    for (const name of NAMED_SQL_FILES[file]) requireSql(set, name, `sql/sqlite/tprocc/${file}`);
    cache.set(file, set);
  }
  return set as Record<StatementName<F>, string>;
}
