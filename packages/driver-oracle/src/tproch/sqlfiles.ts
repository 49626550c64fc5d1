import { SqlCatalog, type SqlVars } from '@sledge/sql';
import type { OracleTarget } from '@sledge/protocol';
import { cleanStatement, fillPlaceholders, identifier, quotablePassword } from '../engine/sql-text.js';

/**
 * The Oracle TPROC-H statements the driver runs, by file
 * (packages/sql/oracle/tproch/<file>.sql) and statement name. queries.sql is
 * read by the workload (core fillQuery), not through this catalog.
 */
export const ORACLE_TPROCH_SQL = {
  admin: [
    'server_version', 'server_version_12c', 'user_exists', 'supplier_exists', 'create_user', 'grant_roles', 'quota',
    'supplier_count', 'row_count', 'column_types',
  ],
  tables: ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'],
  keys: [
    'region_pk', 'nation_pk', 'supplier_pk', 'customer_pk', 'part_pk', 'partsupp_pk', 'orders_pk', 'lineitem_pk',
    'nation_region_fk', 'nation_region_fkidx', 'supplier_nation_fk', 'supplier_nation_fkidx',
    'customer_nation_fk', 'customer_nation_fkidx', 'partsupp_part_fk', 'partsupp_part_fkidx',
    'partsupp_supplier_fk', 'partsupp_supplier_fkidx', 'orders_customer_fk', 'orders_customer_fkidx',
    'lineitem_order_fk', 'lineitem_order_fkidx', 'lineitem_partsupp_fk', 'lineitem_partsupp_fkidx',
  ],
  statistics: ['gather_schema_stats'],
  drop: ['kill_sessions', 'drop_user'],
  refresh: ['defer_lineitem_order_fk', 'insert_order', 'insert_lineitem', 'delete_lineitem', 'delete_order'],
} as const;

export type OracleTprochSql = SqlCatalog<typeof ORACLE_TPROCH_SQL>;
export const oracleTprochSql: OracleTprochSql = new SqlCatalog('oracle', 'tproch', ORACLE_TPROCH_SQL, { clean: cleanStatement, fill: fillPlaceholders });

/** The TPROC-H user's tablespaces: Oracle's defaults (the target has no TPROC-H tablespace fields). */
export const TPROCH_TABLESPACE = 'USERS';
export const TPROCH_TEMP_TABLESPACE = 'TEMP';

/** Identifiers and the password spliced into the TPROC-H DDL, validated. */
export function tprochVars(t: OracleTarget): SqlVars {
  return {
    user: identifier(t.user, 'target.user'),
    password: quotablePassword(t.password, 'target.password'),
    tablespace: TPROCH_TABLESPACE,
    temp_tablespace: TPROCH_TEMP_TABLESPACE,
  };
}
