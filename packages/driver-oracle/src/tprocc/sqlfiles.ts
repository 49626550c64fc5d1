import { SqlCatalog, type SqlVars } from '@sledge/sql';
import { cleanStatement, fillPlaceholders } from '../engine/sql-text.js';

/**
 * The Oracle statements the driver runs, by file (packages/sql/oracle/tprocc/<file>.sql)
 * and statement name (`-- name: x`). Tests assert every one exists.
 */
export const ORACLE_SQL = {
  tables: ['warehouse', 'district', 'customer', 'history', 'item', 'stock', 'orders', 'new_order', 'order_line', 'order_line_partitioned'],
  indexes: [
    'warehouse_i1', 'district_i1', 'customer_i1', 'customer_i2', 'item_i1', 'stock_i1',
    'orders_i1', 'orders_i2', 'new_order_i1', 'order_line_i1', 'statistics',
  ],
  procedures: ['sledge_types', 'neword', 'payment', 'delivery', 'slev', 'ostat'],
  drop: ['kill_sessions', 'drop_user'],
  admin: [
    'server_version', 'server_version_12c', 'user_exists', 'warehouse_table_exists', 'create_user', 'grant_roles',
    'quota_default', 'quota_order_line', 'max_warehouse', 'compile_errors',
  ],
  check: ['tables', 'indexed_tables', 'routines', 'row_count', 'warehouse_ytd', 'district_facts'],
  counters: ['nopm', 'cluster_database', 'tpm_sysstat', 'tpm_gv_sysstat', 'awr_snapshot', 'tpm_awr', 'checkpoint'],
} as const;

export type SqlFile = keyof typeof ORACLE_SQL;
export type SqlName<F extends SqlFile> = (typeof ORACLE_SQL)[F][number];
export type { SqlVars };

/** The driver's statements, read through @sledge/sql: cleaned, placeholders filled. */
export type OracleSql = SqlCatalog<typeof ORACLE_SQL>;
export const oracleSql: OracleSql = new SqlCatalog('oracle', 'tprocc', ORACLE_SQL, { clean: cleanStatement, fill: fillPlaceholders });
