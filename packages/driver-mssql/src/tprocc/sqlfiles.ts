import { SqlCatalog, type SqlVars } from '@sledge/sql';
import { cleanStatement, fillPlaceholders } from '../engine/sql-text.js';

/**
 * The SQL Server statements the driver runs, by file (packages/sql/mssql/tprocc/<file>.sql)
 * and statement name (`-- name: x`). Tests assert every one exists.
 */
export const MSSQL_SQL = {
  tables: ['warehouse', 'district', 'customer', 'history', 'item', 'stock', 'orders', 'new_order', 'order_line'],
  indexes: ['customer_i2', 'orders_i2', 'statistics'],
  procedures: ['order_line_list', 'neword', 'payment', 'delivery', 'slev', 'ostat'],
  drop: ['drop_database'],
  admin: ['server_version', 'database_exists', 'create_database', 'warehouse_table_exists', 'max_warehouse'],
  check: ['tables', 'indexed_tables', 'routines', 'row_count', 'warehouse_ytd', 'district_facts'],
  counters: ['nopm', 'tpm', 'checkpoint'],
} as const;

export type SqlFile = keyof typeof MSSQL_SQL;
export type SqlName<F extends SqlFile> = (typeof MSSQL_SQL)[F][number];
export type { SqlVars };

/** The driver's statements, read through @sledge/sql: cleaned, placeholders filled. */
export type MssqlSql = SqlCatalog<typeof MSSQL_SQL>;
export const mssqlSql: MssqlSql = new SqlCatalog('mssql', 'tprocc', MSSQL_SQL, { clean: cleanStatement, fill: fillPlaceholders });
