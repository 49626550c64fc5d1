/**
 * The stream workload shape: each stream runs the workload's queries, pass
 * after pass ("query sets"), on a session of its own (TPROC-H's power and
 * throughput tests; CH-benCHmark's analytic streams). The server's generic
 * stream runner (server/src/runner/streams.ts) opens the sessions, asks the
 * workload for each pass's queries, runs and times them, and records every
 * query; it knows nothing of any benchmark. Pure: no I/O here.
 */

/** A query ready to run: the engine's statements with every parameter filled in. */
export interface StreamQueryText {
  /** Query number (1-based; TPC-H and CH-benCHmark: 1..22). */
  query: number;
  /**
   * Statements in order. Exactly one is the timed statement (`timed`);
   * others run around it untimed (TPROC-H Q15's view on engines that use one).
   */
  statements: { sql: string; timed: boolean }[];
}

/** The outcome of one timed query. */
export interface StreamQueryRun {
  rows: number;
  /** ms of execute + fetch of the timed statement only. */
  ms: number;
  /** The fetched rows, when asked for (verbose output, validation). */
  data?: unknown[][];
}

/** A stream's session as the stream runner drives it (an engine's analytic query session). */
export interface StreamSession {
  /** Run the query's statements; times the timed one. Database errors throw (classified by the driver). */
  query(q: StreamQueryText, o?: { fetch?: boolean }): Promise<StreamQueryRun>;
  /** The engine's plan of the query's timed statement (text), without running it. */
  explain(q: StreamQueryText): Promise<string>;
  /** Cancel the statement running on this session, server side. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

/** One query of a pass, where it stands in the stream's order. */
export interface PlannedQuery {
  /** 1-based position in the pass. */
  position: number;
  text: StreamQueryText;
}

/** Where a stream stands when it asks for a pass's queries. */
export interface QuerySetContext<Options = unknown> {
  seed: number;
  options: Options;
  /** Stream number (TPROC-H: 0 = power, 1..S throughput; CH-benCHmark: 1..M). */
  stream: number;
  /** Pass, 1-based. */
  set: number;
  /** The engine's query statements by name (its queries file, read by the server). */
  sql: Readonly<Record<string, string>>;
}

export interface StreamWorkload<Options = unknown> {
  readonly shape: 'stream';
  /** Registry key, e.g. 'tproch'. */
  readonly id: string;
  /** Display name, e.g. 'TPROC-H'. */
  readonly name: string;
  /** Query operation names in report order ('q1'..'q22'). */
  readonly queries: readonly string[];
  /** The file under the engine's SQL folder that holds the queries (packages/sql/<engine>/<sqlArea>/<sqlFile>). */
  readonly sqlArea: string;
  readonly sqlFile: string;
  /** Session name of a stream's session (application_name or the engine's equivalent), e.g. 'tproch-3'. */
  sessionName(stream: number): string;
  /** The queries of one pass of one stream, in the order the stream runs them. Deterministic for a seed. */
  querySet(ctx: QuerySetContext<Options>): PlannedQuery[];
}

/** How to open an engine-level query session (Driver.openQuerySession). */
export interface QuerySessionOptions {
  /**
   * The session's name as the engine shows it (PostgreSQL application_name,
   * SQL Server program_name, Oracle MODULE, Db2 client application name,
   * MySQL/MariaDB a program_name connection attribute): `sledge-<name>`,
   * e.g. 'chbench-2' -> sledge-chbench-2, so ASH tells streams from VUs.
   */
  name: string;
  /** Per-query parallel workers where the engine has them (else ignored; DriverFeatures says which). */
  dop: number;
  /** Server-side statement timeout in seconds; 0 = none. */
  queryTimeoutSec: number;
  log: (text: string) => void;
}

/**
 * An engine-level session on the target's database, for workloads that
 * bring their own SQL files (CH-benCHmark's extra tables and analytic
 * streams): run statements, run timed queries, explain, cancel. Knows no
 * workload: every statement comes from the caller.
 */
export interface QuerySession extends StreamSession {
  /** Run one statement that returns no rows (DDL, INSERT, ANALYZE), outside any explicit transaction (autocommit). */
  exec(sql: string): Promise<void>;
  /** Insert rows into a table, in batches, in one transaction (values: numbers, strings, null; columns in `columns` order). */
  insertRows(table: string, columns: readonly string[], rows: readonly (readonly (string | number | null)[])[]): Promise<void>;
}
