import { SqlCatalog } from '@sledge/sql';
import { cleanStatement, fillPlaceholders } from '../engine/sql-text.js';

/**
 * The Db2 TPROC-H statements the driver runs, by file
 * (packages/sql/db2/tproch/<file>.sql) and statement name. queries.sql is
 * read by the workload (core fillQuery), not through this catalog.
 */
export const DB2_TPROCH_SQL = {
  admin: [
    'server_version', 'schema_exists', 'create_schema', 'set_schema', 'supplier_exists', 'supplier_count', 'row_count',
    'column_types',
  ],
  tables: ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'],
  keys: [
    'region_pk', 'nation_pk', 'supplier_pk', 'customer_pk', 'part_pk', 'partsupp_pk', 'orders_pk', 'lineitem_pk',
    'nation_region_fk', 'nation_region_fkidx', 'supplier_nation_fk', 'supplier_nation_fkidx',
    'customer_nation_fk', 'customer_nation_fkidx', 'partsupp_part_fk', 'partsupp_part_fkidx',
    'partsupp_supplier_fk', 'partsupp_supplier_fkidx', 'orders_customer_fk', 'orders_customer_fkidx',
    'lineitem_order_fk', 'lineitem_order_fkidx', 'lineitem_partsupp_fk', 'lineitem_partsupp_fkidx',
  ],
  statistics: ['runstats'],
  drop: ['drop_lineitem', 'drop_orders', 'drop_partsupp', 'drop_part', 'drop_customer', 'drop_supplier', 'drop_nation', 'drop_region'],
  refresh: ['insert_order', 'insert_lineitem', 'delete_lineitem', 'delete_order'],
} as const;

export type Db2TprochSql = SqlCatalog<typeof DB2_TPROCH_SQL>;
export const db2TprochSql: Db2TprochSql = new SqlCatalog('db2', 'tproch', DB2_TPROCH_SQL, { clean: cleanStatement, fill: fillPlaceholders });
