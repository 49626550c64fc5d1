import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/**
 * The Db2 statements the driver runs, by file (sql/db2/tprocc/<file>.sql)
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
export type SqlVars = Readonly<Record<string, string | number>>;

/** ${name}: substitute by hand with envsubst before `db2 -td@ -vf`. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

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

export function placeholders(sql: string): string[] {
  const out: string[] = [];
  for (const m of sql.matchAll(PLACEHOLDER)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

export function fillPlaceholders(sql: string, vars: SqlVars, where = 'statement'): string {
  return sql.replace(PLACEHOLDER, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`${where} needs the variable \${${name}}`);
    return String(v);
  });
}

/** An ordinary Db2 identifier spliced into SQL (tablespace). */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be an ordinary Db2 name: a letter, then letters, digits or _`, { field });
  }
  return value;
}

export class SqlLibrary {
  private readonly files = new Map<SqlFile, Record<string, string>>();

  constructor(readonly dir: string = findSqlDir('db2')) {}

  file(f: SqlFile): Record<string, string> {
    let parsed = this.files.get(f);
    if (!parsed) {
      const raw = parseNamedSql(readFileSync(join(this.dir, `${f}.sql`), 'utf8'));
      parsed = {};
      for (const [name, sql] of Object.entries(raw)) parsed[name] = cleanStatement(sql);
      this.files.set(f, parsed);
    }
    return parsed;
  }

  get<F extends SqlFile>(f: F, name: SqlName<F>, vars: SqlVars = {}): string {
    const sql = this.file(f)[name];
    if (sql === undefined) throw new Error(`sql/db2/tprocc/${f}.sql has no statement named "${name}"`);
    return fillPlaceholders(sql, vars, `${f}.sql:${name}`);
  }

  script<F extends SqlFile>(f: F, names: readonly SqlName<F>[], vars: SqlVars = {}): Array<{ name: SqlName<F>; sql: string }> {
    return names.map((name) => ({ name, sql: this.get(f, name, vars) }));
  }
}

let shared: SqlLibrary | undefined;
export function sqlLibrary(): SqlLibrary {
  shared ??= new SqlLibrary();
  return shared;
}
