/** A bound parameter as the engines take it. */
export type ParamValue = number | string | boolean | null;
/** One result row: column name (as the engine reports it) to value. */
export type ParamRow = Record<string, unknown>;

export interface ParamSessionOptions {
  /** The session's name as the engine shows it: sledge-<name> (application_name, program_name). */
  name: string;
  log: (line: string) => void;
  /** A build's session: an engine whose database is a file creates it when missing (SQLite); server engines need the database to exist, as pgbench -i does. */
  create?: boolean;
}

/**
 * An engine-level session that runs a caller's statements with bound
 * parameters, one at a time, in transactions the caller opens: what a
 * user's script needs (the script workload). Engine differences are here:
 * the placeholder syntax, and how a transaction begins (SQLite takes the
 * write lock at BEGIN, so two writers never deadlock on a lock upgrade).
 */
export interface ParamSession {
  /** The engine's placeholder for the n-th parameter (1-based): `$n` on PostgreSQL, `?` on MySQL, MariaDB and SQLite. */
  placeholder(n: number): string;
  /** Run one statement; rows come back for statements that return them ([] otherwise). Database errors throw (classified by the driver). */
  run(sql: string, params: readonly ParamValue[]): Promise<ParamRow[]>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}
