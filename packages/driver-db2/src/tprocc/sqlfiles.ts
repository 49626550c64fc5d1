import { SqlCatalog, type SqlVars } from '@sledge/sql';
import { cleanStatement, fillPlaceholders } from '../engine/sql-text.js';

/**
 * The Db2 statements the driver runs, by file (packages/sql/db2/tprocc/<file>.sql)
 * and statement name (`-- name: x`). Tests assert every one exists.
 */
export const DB2_SQL = {
  tables: ['warehouse', 'district', 'customer', 'history', 'item', 'stock', 'orders', 'new_order', 'order_line', 'order_line_partitioned'],
  indexes: [
    'warehouse_i1', 'district_i1', 'customer_i1', 'customer_i2', 'item_i1', 'stock_i1',
    'orders_i1', 'orders_i2', 'new_order_i1', 'order_line_i1',
  ],
  procedures: ['neword', 'payment', 'delivery', 'slev', 'ostat'],
  drop: [
    'drop_neword', 'drop_payment', 'drop_delivery', 'drop_slev', 'drop_ostat',
    'drop_order_line', 'drop_new_order', 'drop_orders', 'drop_history', 'drop_customer',
    'drop_district', 'drop_stock', 'drop_item', 'drop_warehouse',
  ],
  admin: ['server_version', 'current_schema', 'warehouse_table_exists', 'max_warehouse'],
  check: ['tables', 'indexed_tables', 'routines', 'row_count', 'warehouse_ytd', 'district_facts'],
  counters: ['nopm', 'tpm', 'runstats'],
} as const;

export type SqlFile = keyof typeof DB2_SQL;
export type SqlName<F extends SqlFile> = (typeof DB2_SQL)[F][number];
export type { SqlVars };

/** The driver's statements, read through @sledge/sql: cleaned, placeholders filled. */
export type Db2Sql = SqlCatalog<typeof DB2_SQL>;
export const db2Sql: Db2Sql = new SqlCatalog('db2', 'tprocc', DB2_SQL, { clean: cleanStatement, fill: fillPlaceholders });
