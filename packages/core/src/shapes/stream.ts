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

/** One operator of an executed query's profile, in plan order (depth-first from the root). */
export interface ProfileOperator {
  /** 0 = the root operator; a child is one deeper than its parent. */
  depth: number;
  /** The engine's operator name, e.g. 'HASH_JOIN', 'SEQ_SCAN'. */
  name: string;
  /** Seconds the engine timed in this operator (its own, children excluded). */
  seconds: number;
  /** Rows the operator produced. */
  rows: number;
  /** CPU seconds the engine counted for the operator and the operators below it (DuckDB's cpu_time is cumulative), where it counts them. */
  cpuSeconds?: number;
  /** The engine's detail of the operator (table, join condition, aggregates), one line. */
  detail?: string;
}

/** The engine's profile of one executed query: operator timings as the engine measured them while the query ran. */
export interface QueryProfile {
  /** Query latency as the engine measured it, seconds. */
  seconds: number;
  /** CPU seconds the engine counted for the whole query, where it counts them. */
  cpuSeconds?: number;
  operators: ProfileOperator[];
}

/** The outcome of one timed query. */
export interface StreamQueryRun {
  rows: number;
  /** ms of execute + fetch of the timed statement only. */
  ms: number;
  /** The fetched rows, when asked for (verbose output, validation). */
  data?: unknown[][];
  /**
   * CPU seconds the client process used while the timed statement ran (all
   * its threads), from drivers whose engine runs inside the process
   * (DuckDB): there it is the engine's CPU. Absent for server engines.
   */
  cpuSeconds?: number;
  /** The engine's profile of the timed statement, when asked for and the session has one (`profiles`). */
  profile?: QueryProfile;
}

/** What one run of a query asks of the session besides running it. */
export interface StreamQueryOptions {
  /** Return the fetched rows. */
  fetch?: boolean;
  /** Return the engine's profile of the timed statement (sessions with `profiles`; others ignore it). */
  profile?: boolean;
}

/** A stream's session as the stream runner drives it (an engine's analytic query session). */
export interface StreamSession {
  /** Run the query's statements; times the timed one. Database errors throw (classified by the driver). */
  query(q: StreamQueryText, o?: StreamQueryOptions): Promise<StreamQueryRun>;
  /** The engine's plan of the query's timed statement (text), without running it. */
  explain(q: StreamQueryText): Promise<string>;
  /** The session profiles a query it runs when asked (`query(q, { profile: true })` returns `profile`): an engine capability. */
  readonly profiles?: boolean;
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
