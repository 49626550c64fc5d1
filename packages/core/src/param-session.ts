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
  /**
   * Optional capability (PostgreSQL): start a pipeline, as libpq's pipeline
   * mode and pgbench's `\startpipeline` do. Until `end()` the session takes
   * no other call.
   */
  pipeline?(): ParamPipeline;
}

/**
 * A pipeline on a parameter session: statements are sent as they come,
 * without waiting for their results, and `end()` sends a Sync and waits
 * for all of them. The statements up to a Sync are one implicit
 * transaction (unless the caller's BEGIN opened one); an error makes the
 * server skip the rest up to that Sync, and `end()` throws the first one.
 * `sync()` (pgbench 17's `\syncpipeline`) sends a Sync in between: the
 * implicit transaction so far ends there, and the statements after it run
 * whatever happened before it.
 */
export interface ParamPipeline {
  /** Send one statement (its result is not read: pgbench has no \gset in a pipeline). */
  send(sql: string, params: readonly ParamValue[]): void;
  /** Send one transaction-control statement the engine's way. */
  control(kind: 'begin' | 'commit' | 'rollback'): void;
  /** A Sync now, without waiting for any answer; the pipeline goes on. */
  sync(): void;
  /** A last Sync; resolves when the server has answered every statement, throws the first error (classified by the driver). */
  end(): Promise<void>;
}
