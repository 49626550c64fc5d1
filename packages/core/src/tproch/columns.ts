import type { TprochTable } from '@sledge/protocol';

/**
 * Column order of every TPROC-H table as generated (TPC-H specification
 * clause 1.4 order, which is also dbgen's .tbl order). Bulk formats and
 * tuples follow it; every engine's loader names the columns in this order,
 * and so does every tables.sql but PostgreSQL's, which puts the fixed-width
 * columns first (its header says why). Dates are 'YYYY-MM-DD'; money and
 * decimals have 2 places.
 */
export const TPROCH_COLUMNS: Readonly<Record<TprochTable, readonly string[]>> = {
  region: ['r_regionkey', 'r_name', 'r_comment'],
  nation: ['n_nationkey', 'n_name', 'n_regionkey', 'n_comment'],
  supplier: ['s_suppkey', 's_name', 's_address', 's_nationkey', 's_phone', 's_acctbal', 's_comment'],
  customer: ['c_custkey', 'c_name', 'c_address', 'c_nationkey', 'c_phone', 'c_acctbal', 'c_mktsegment', 'c_comment'],
  part: ['p_partkey', 'p_name', 'p_mfgr', 'p_brand', 'p_type', 'p_size', 'p_container', 'p_retailprice', 'p_comment'],
  partsupp: ['ps_partkey', 'ps_suppkey', 'ps_availqty', 'ps_supplycost', 'ps_comment'],
  orders: ['o_orderkey', 'o_custkey', 'o_orderstatus', 'o_totalprice', 'o_orderdate', 'o_orderpriority', 'o_clerk', 'o_shippriority', 'o_comment'],
  lineitem: [
    'l_orderkey',
    'l_partkey',
    'l_suppkey',
    'l_linenumber',
    'l_quantity',
    'l_extendedprice',
    'l_discount',
    'l_tax',
    'l_returnflag',
    'l_linestatus',
    'l_shipdate',
    'l_commitdate',
    'l_receiptdate',
    'l_shipinstruct',
    'l_shipmode',
    'l_comment',
  ],
};
