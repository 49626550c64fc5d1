import { SledgeError } from '@sledge/protocol';
import { SqlCatalog, placeholderSyntax, type SqlVars } from '@sledge/sql';

/**
 * The SQL Server statements the driver runs, by file (packages/sql/mssql/tprocc/<file>.sql)
 * and statement name (`-- name: x`). Tests assert every one exists.
 */
export const MSSQL_SQL = {
  tables: ['warehouse', 'district', 'customer', 'history', 'item', 'stock', 'orders', 'new_order', 'order_line'],
  indexes: ['customer_i2', 'orders_i2', 'statistics'],
  procedures: ['order_line_list', 'neword', 'payment', 'delivery', 'slev', 'ostat'],
  drop: ['drop_database'],
  admin: ['server_version', 'database_exists', 'create_database', 'warehouse_table_exists', 'max_warehouse', 'column_types'],
  check: ['tables', 'indexed_tables', 'routines', 'row_count', 'warehouse_ytd', 'district_facts'],
  counters: ['nopm', 'tpm', 'checkpoint'],
} as const;

export type SqlFile = keyof typeof MSSQL_SQL;
export type SqlName<F extends SqlFile> = (typeof MSSQL_SQL)[F][number];
export type { SqlVars };

/** sqlcmd scripting variable: $(name). */
const PLACEHOLDER = /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g;
/** sqlcmd batch separator. */
const TERMINATOR = /^\s*GO\s*$/i;

const isNoise = (line: string) => line.trim() === '' || line.trim().startsWith('--');

/** Drop leading/trailing comment lines and the shell's batch terminator (GO). */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && (isNoise(lines[lines.length - 1]!) || TERMINATOR.test(lines[lines.length - 1]!))) lines.pop();
  return lines.join('\n').trim();
}

/** placeholders(sql): the $(name) names in order of first use; fillPlaceholders(sql, vars, where): a missing variable throws. */
export const { placeholders, fill: fillPlaceholders } = placeholderSyntax(PLACEHOLDER, (n) => `$(${n})`);

/** A value that is spliced into SQL as an identifier must look like one. */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be a plain identifier (letters, digits, _ and $, starting with a letter or _)`, { field });
  }
  return value;
}

/** The driver's statements, read through @sledge/sql: cleaned, placeholders filled. */
export type MssqlSql = SqlCatalog<typeof MSSQL_SQL>;
export const mssqlSql: MssqlSql = new SqlCatalog('mssql', 'tprocc', MSSQL_SQL, { clean: cleanStatement, fill: fillPlaceholders });
