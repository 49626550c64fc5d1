import { SledgeError } from '@sledge/protocol';
import { SqlCatalog, placeholderSyntax, type SqlVars } from '@sledge/sql';

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
  admin: ['server_version', 'current_schema', 'warehouse_table_exists', 'max_warehouse', 'column_types'],
  check: ['tables', 'indexed_tables', 'routines', 'row_count', 'warehouse_ytd', 'district_facts'],
  counters: ['nopm', 'tpm', 'runstats'],
} as const;

export type SqlFile = keyof typeof DB2_SQL;
export type SqlName<F extends SqlFile> = (typeof DB2_SQL)[F][number];
export type { SqlVars };

/** ${name}: substitute by hand with envsubst before `db2 -td@ -vf`. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const isNoise = (line: string) => line.trim() === '' || line.trim().startsWith('--');

/** Drop surrounding comment lines and the CLP terminator ('@', alone on a line or ending the last one). */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
  if (lines.length && lines[lines.length - 1]!.trim() === '@') lines.pop();
  else if (lines.length) lines[lines.length - 1] = lines[lines.length - 1]!.replace(/@\s*$/, '');
  while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
  return lines.join('\n').trim();
}

/** placeholders(sql): the ${name} names in order of first use; fillPlaceholders(sql, vars, where): a missing variable throws. */
export const { placeholders, fill: fillPlaceholders } = placeholderSyntax(PLACEHOLDER, (n) => `\${${n}}`);

/** An ordinary Db2 identifier spliced into SQL (tablespace). */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an ordinary Db2 name: a letter, then letters, digits or _`, { field });
  }
  return value;
}

/** The driver's statements, read through @sledge/sql: cleaned, placeholders filled. */
export type Db2Sql = SqlCatalog<typeof DB2_SQL>;
export const db2Sql: Db2Sql = new SqlCatalog('db2', 'tprocc', DB2_SQL, { clean: cleanStatement, fill: fillPlaceholders });
