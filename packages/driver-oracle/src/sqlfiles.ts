import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/**
 * The Oracle statements the driver runs, by file (sql/oracle/tprocc/<file>.sql)
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
export type SqlVars = Readonly<Record<string, string | number>>;

/** SQL*Plus substitution variable: &name, optionally ended by a period (&user..table). */
const PLACEHOLDER = /&([A-Za-z_][A-Za-z0-9_]*)\.?/g;
/** SQL*Plus runs the buffer (a PL/SQL block) at a line holding only '/'. */
const SLASH = /^\s*\/\s*$/;

/** Walk up from this module until sql/<engine>/tprocc exists (the repo root); works from src/ and dist/. */
export function findSqlDir(engine: string, from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const candidate = join(dir, 'sql', engine, 'tprocc');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find sql/${engine}/tprocc in any directory above ${fileURLToPath(from)}`);
    dir = parent;
  }
}

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

/** Names of the &placeholders in a statement, in order of first use. */
export function placeholders(sql: string): string[] {
  const out: string[] = [];
  for (const m of sql.matchAll(PLACEHOLDER)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** Replace every &name with vars[name]; a missing variable is a bug and throws. */
export function fillPlaceholders(sql: string, vars: SqlVars, where = 'statement'): string {
  return sql.replace(PLACEHOLDER, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`${where} needs the variable &${name}`);
    return String(v);
  });
}

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

/** The parsed SQL files of the engine, loaded once. */
export class SqlLibrary {
  private readonly files = new Map<SqlFile, Record<string, string>>();

  constructor(readonly dir: string = findSqlDir('oracle')) {}

  /** Every named statement of a file, cleaned. */
  file(f: SqlFile): Record<string, string> {
    let parsed = this.files.get(f);
    if (!parsed) {
      // parseNamedSql strips a trailing ';' only when it ends the text; cleanStatement handles the rest.
      const raw = parseNamedSql(readFileSync(join(this.dir, `${f}.sql`), 'utf8'));
      parsed = {};
      for (const [name, sql] of Object.entries(raw)) parsed[name] = cleanStatement(sql);
      this.files.set(f, parsed);
    }
    return parsed;
  }

  get<F extends SqlFile>(f: F, name: SqlName<F>, vars: SqlVars = {}): string {
    const sql = this.file(f)[name];
    if (sql === undefined) throw new Error(`sql/oracle/tprocc/${f}.sql has no statement named "${name}"`);
    return fillPlaceholders(sql, vars, `${f}.sql:${name}`);
  }

  /** Named statements of a file in the given order, placeholders filled. */
  script<F extends SqlFile>(f: F, names: readonly SqlName<F>[], vars: SqlVars = {}): Array<{ name: SqlName<F>; sql: string }> {
    return names.map((name) => ({ name, sql: this.get(f, name, vars) }));
  }
}

let shared: SqlLibrary | undefined;
export function sqlLibrary(): SqlLibrary {
  shared ??= new SqlLibrary();
  return shared;
}
