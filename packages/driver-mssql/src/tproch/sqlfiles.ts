import { SqlCatalog } from '@sledge/sql';
import { cleanStatement, fillPlaceholders } from '../engine/sql-text.js';

/**
 * The SQL Server TPROC-H statements the driver runs, by file
 * (packages/sql/mssql/tproch/<file>.sql) and statement name. queries.sql is
 * read by the workload (core fillQuery), not through this catalog.
 */
export const MSSQL_TPROCH_SQL = {
  admin: ['server_version', 'database_exists', 'create_database', 'supplier_exists', 'supplier_count', 'row_count', 'column_types'],
  tables: ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'],
  keys: [
    'region_pk', 'nation_pk', 'supplier_pk', 'customer_pk', 'part_pk', 'partsupp_pk', 'orders_pk', 'lineitem_pk',
    'nation_region_fk', 'nation_region_fkidx', 'supplier_nation_fk', 'supplier_nation_fkidx',
    'customer_nation_fk', 'customer_nation_fkidx', 'partsupp_part_fk', 'partsupp_part_fkidx',
    'partsupp_supplier_fk', 'partsupp_supplier_fkidx', 'orders_customer_fk', 'orders_customer_fkidx',
    'lineitem_order_fk', 'lineitem_order_fkidx', 'lineitem_partsupp_fk', 'lineitem_partsupp_fkidx',
  ],
  statistics: ['update_statistics'],
  drop: ['drop_database'],
  refresh: ['insert_order', 'insert_lineitem', 'delete_lineitem', 'delete_order'],
} as const;

export type MssqlTprochSql = SqlCatalog<typeof MSSQL_TPROCH_SQL>;
export const mssqlTprochSql: MssqlTprochSql = new SqlCatalog('mssql', 'tproch', MSSQL_TPROCH_SQL, { clean: cleanStatement, fill: fillPlaceholders });
