import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/**
 * The SQL Server statements the driver runs, by file (sql/mssql/tprocc/<file>.sql)
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
export type SqlVars = Readonly<Record<string, string | number>>;

/** sqlcmd scripting variable: $(name). */
const PLACEHOLDER = /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g;
/** sqlcmd batch separator. */
const TERMINATOR = /^\s*GO\s*$/i;

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

/** Drop leading/trailing comment lines and the shell's batch terminator (GO). */
export function cleanStatement(sql: string): string {
  const lines = sql.split(/\r?\n/);
  while (lines.length && isNoise(lines[0]!)) lines.shift();
  while (lines.length && (isNoise(lines[lines.length - 1]!) || TERMINATOR.test(lines[lines.length - 1]!))) lines.pop();
  return lines.join('\n').trim();
}

/** Names of the $(placeholders) in a statement, in order of first use. */
export function placeholders(sql: string): string[] {
  const out: string[] = [];
  for (const m of sql.matchAll(PLACEHOLDER)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** Replace every $(name) with vars[name]; a missing variable is a bug and throws. */
export function fillPlaceholders(sql: string, vars: SqlVars, where = 'statement'): string {
  return sql.replace(PLACEHOLDER, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`${where} needs the variable $(${name})`);
    return String(v);
  });
}

/** A value that is spliced into SQL as an identifier must look like one. */
export function identifier(value: string, field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]{0,127}$/.test(value)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} must be a plain identifier (letters, digits, _ and $, starting with a letter or _)`, { field });
  }
  return value;
}

/** The parsed SQL files of the engine, loaded once. */
export class SqlLibrary {
  private readonly files = new Map<SqlFile, Record<string, string>>();

  constructor(readonly dir: string = findSqlDir('mssql')) {}

  /** Every named statement of a file, cleaned (comments and GO removed). */
  file(f: SqlFile): Record<string, string> {
    let parsed = this.files.get(f);
    if (!parsed) {
      const path = join(this.dir, `${f}.sql`);
      const raw = parseNamedSql(readFileSync(path, 'utf8'));
      parsed = {};
      for (const [name, sql] of Object.entries(raw)) parsed[name] = cleanStatement(sql);
      this.files.set(f, parsed);
    }
    return parsed;
  }

  /** One statement with its placeholders filled. */
  get<F extends SqlFile>(f: F, name: SqlName<F>, vars: SqlVars = {}): string {
    const sql = this.file(f)[name];
    if (sql === undefined) throw new Error(`sql/mssql/tprocc/${f}.sql has no statement named "${name}"`);
    return fillPlaceholders(sql, vars, `${f}.sql:${name}`);
  }

  /** The driver's statements of a file, in the order the driver runs them. */
  script<F extends SqlFile>(f: F, vars: SqlVars = {}): Array<{ name: SqlName<F>; sql: string }> {
    return (MSSQL_SQL[f] as readonly SqlName<F>[]).map((name) => ({ name, sql: this.get(f, name, vars) }));
  }
}

let shared: SqlLibrary | undefined;
/** The process-wide library (sql dir resolved on first use). */
export function sqlLibrary(): SqlLibrary {
  shared ??= new SqlLibrary();
  return shared;
}
