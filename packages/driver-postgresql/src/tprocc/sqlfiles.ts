import { sqlSet } from '@sledge/sql';

/** Files of packages/sql/postgresql/tprocc/ the driver reads. */
export const SQL_FILES = {
  admin: 'admin.sql',
  tables: 'tables.sql',
  indexes: 'indexes.sql',
  procedures: 'procedures.sql',
  drop: 'drop.sql',
  check: 'check.sql',
  counters: 'counters.sql',
  /** Extras (packages/sql/README.md): the function variant, the VU call statements, ORDER_LINE partitioning. */
  functions: 'functions.sql',
  calls: 'calls.sql',
  partition: 'partition.sql',
} as const;
export type SqlFile = (typeof SQL_FILES)[keyof typeof SQL_FILES];

/** The driver's SQL, resolved and read once by @sledge/sql. */
const files = sqlSet<SqlFile>('postgresql', 'tprocc');

export const sqlText = (file: SqlFile): string => files.text(file);

/** All `-- name:` statements of a file, in file order. */
export const namedStatements = (file: SqlFile): Record<string, string> => files.statements(file);

/** One named statement; throws naming the file when it is missing. */
export const statement = (file: SqlFile, name: string): string => files.statement(file, name);

/** A whole script split into statements (dollar-quoted bodies kept whole). */
export const scriptStatements = (file: SqlFile): string[] => files.script(file);

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
