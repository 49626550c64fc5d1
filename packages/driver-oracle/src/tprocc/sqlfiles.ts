import { SledgeError } from '@sledge/protocol';
import { SqlCatalog, placeholderSyntax, type SqlVars } from '@sledge/sql';

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
    'quota_default', 'quota_order_line', 'max_warehouse', 'column_types', 'compile_errors',
  ],
  check: ['tables', 'indexed_tables', 'routines', 'row_count', 'warehouse_ytd', 'district_facts'],
  counters: ['nopm', 'cluster_database', 'tpm_sysstat', 'tpm_gv_sysstat', 'awr_snapshot', 'tpm_awr', 'checkpoint'],
} as const;

export type SqlFile = keyof typeof ORACLE_SQL;
export type SqlName<F extends SqlFile> = (typeof ORACLE_SQL)[F][number];
export type { SqlVars };

/** SQL*Plus substitution variable: &name, optionally ended by a period (&user..table). */
const PLACEHOLDER = /&([A-Za-z_][A-Za-z0-9_]*)\.?/g;
/** SQL*Plus runs the buffer (a PL/SQL block) at a line holding only '/'. */
const SLASH = /^\s*\/\s*$/;

const isNoise = (line: string) => line.trim() === '' || line.trim().startsWith('--');

/**
 * Make a SQL*Plus statement sendable through the driver: drop surrounding
 * comment lines; a PL/SQL unit ends with a '/' line, which goes while its
 * final `END;` stays; a SQL statement loses its trailing ';'.
 */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
  if (lines.length && SLASH.test(lines[lines.length - 1]!)) {
    lines.pop();
    while (lines.length && isNoise(lines[lines.length - 1]!)) lines.pop();
    return lines.join('\n').trim();
  }
  return lines.join('\n').trim().replace(/;\s*$/, '').trim();
}

/** placeholders(sql): the &name names in order of first use; fillPlaceholders(sql, vars, where): a missing variable throws. */
export const { placeholders, fill: fillPlaceholders } = placeholderSyntax(PLACEHOLDER, (n) => `&${n}`);

/** An unquoted Oracle identifier (user or tablespace) spliced into DDL. */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_$#]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an unquoted Oracle name: a letter, then letters, digits, _, $ or #`, { field });
  }
  return value;
}

/** The password goes into CREATE USER ... IDENTIFIED BY "<password>". */
export function quotablePassword(value: string, field: string): string {
  if (!value || /["\r\n\0]/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be non-empty and may not contain double quotes or line breaks (it is used in CREATE USER)`, { field });
  }
  return value;
}

/** The driver's statements, read through @sledge/sql: cleaned, placeholders filled. */
export type OracleSql = SqlCatalog<typeof ORACLE_SQL>;
export const oracleSql: OracleSql = new SqlCatalog('oracle', 'tprocc', ORACLE_SQL, { clean: cleanStatement, fill: fillPlaceholders });
