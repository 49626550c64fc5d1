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
  /** Extras (packages/sql/README.md): the function variant, the VU call statements, ORDER_LINE partitioning, noStoredProcs statements. */
  functions: 'functions.sql',
  calls: 'calls.sql',
  partition: 'partition.sql',
  client: 'client.sql',
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
