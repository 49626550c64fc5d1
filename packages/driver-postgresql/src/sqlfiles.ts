import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNamedSql, requireSql, splitSqlScript } from '@sledge/core';

/** Files of sql/postgresql/tprocc/ the driver reads. */
export const SQL_FILES = {
  admin: 'admin.sql',
  tables: 'tables.sql',
  indexes: 'indexes.sql',
  procedures: 'procedures.sql',
  drop: 'drop.sql',
  check: 'check.sql',
  counters: 'counters.sql',
  /** Extras (sql/README.md): the function variant, the VU call statements, ORDER_LINE partitioning. */
  functions: 'functions.sql',
  calls: 'calls.sql',
  partition: 'partition.sql',
} as const;
export type SqlFile = (typeof SQL_FILES)[keyof typeof SQL_FILES];

const ENGINE_DIR = join('sql', 'postgresql', 'tprocc');

/** Walk up from this module (src/ or dist/) to the repository root holding sql/postgresql/tprocc. */
export function findSqlDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, ENGINE_DIR);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find ${ENGINE_DIR} above ${dirname(from)}`);
    dir = up;
  }
}

let sqlDir: string | undefined;
const textCache = new Map<SqlFile, string>();
const namedCache = new Map<SqlFile, Record<string, string>>();

export function sqlText(file: SqlFile): string {
  let t = textCache.get(file);
  if (t === undefined) {
    sqlDir ??= findSqlDir();
    t = readFileSync(join(sqlDir, file), 'utf8');
    textCache.set(file, t);
  }
  return t;
}

/** All `-- name:` statements of a file, in file order. */
export function namedStatements(file: SqlFile): Record<string, string> {
  let n = namedCache.get(file);
  if (n === undefined) {
    n = parseNamedSql(sqlText(file));
    namedCache.set(file, n);
  }
  return n;
}

/** One named statement; throws naming the file when it is missing. */
export function statement(file: SqlFile, name: string): string {
  return requireSql(namedStatements(file), name, file);
}

/** A whole script split into statements (dollar-quoted bodies kept whole). */
export function scriptStatements(file: SqlFile): string[] {
  return splitSqlScript(sqlText(file));
}

export interface Quoting {
  escapeIdentifier(s: string): string;
  escapeLiteral(s: string): string;
}

/**
 * Fill psql-style variables: `:'name'` becomes a quoted literal, `:"name"` a
 * quoted identifier, and a bare `:name` an integer (only integers are
 * accepted bare). `::type` casts are left alone. A quoted variable that is
 * not supplied is a bug in the caller and throws.
 */
export function renderVars(sql: string, vars: Record<string, string | number>, q: Quoting): string {
  return sql.replace(/(?<!:):(?:'([A-Za-z_]\w*)'|"([A-Za-z_]\w*)"|([A-Za-z_]\w*))/g, (whole, lit?: string, ident?: string, bare?: string) => {
    const name = (lit ?? ident ?? bare)!;
    const v = vars[name];
    if (v === undefined) {
      if (bare !== undefined) return whole;
      throw new Error(`SQL variable :${lit !== undefined ? `'${name}'` : `"${name}"`} has no value`);
    }
    if (lit !== undefined) return q.escapeLiteral(String(v));
    if (ident !== undefined) return q.escapeIdentifier(String(v));
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`SQL variable :${name} must be an integer`);
    return String(v);
  });
}
