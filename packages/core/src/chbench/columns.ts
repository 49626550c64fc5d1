/** The three tables CH-benCHmark adds to TPROC-C's nine. */
export const CHBENCH_TABLES = ['region', 'nation', 'supplier'] as const;
export type ChbenchTable = (typeof CHBENCH_TABLES)[number];

/**
 * Column order of generated rows per table. Loads name these columns, so
 * each engine's chbench/tables.sql may order them as it likes.
 */
export const CHBENCH_COLUMNS: Readonly<Record<ChbenchTable, readonly string[]>> = {
  region: ['r_regionkey', 'r_name', 'r_comment'],
  nation: ['n_nationkey', 'n_name', 'n_regionkey', 'n_comment'],
  supplier: ['su_suppkey', 'su_name', 'su_address', 'su_nationkey', 'su_phone', 'su_acctbal', 'su_comment'],
};
