import { SledgeError, type Target, type TprochTable } from '@sledge/protocol';
import type { StreamQueryRun, StreamQueryText, StreamSession } from '../shapes/stream.js';
import type { Driver, EngineSession, Logger } from '../driver.js';
import type { BulkFormat, Value } from '../bulk/encode.js';
import type { DatagenScript } from '../bulk/datagen.js';

declare module '../driver.js' {
  interface DriverWorkloads<T extends Target> {
    /** TPROC-H: the analytic schema's lifecycle, bulk loader, query streams and refresh functions. */
    tproch?: TprochHooks<T>;
  }
}

/** Rows of one TPROC-H table from the generator, in the loader's bulk format. */
export interface TprochGeneratedTable {
  table: TprochTable;
  rows: number;
  /** pg-text/csv: encoded rows (string or Buffer); tuples: values in TPROCH_COLUMNS order. */
  data: string | Uint8Array | Value[][];
}

/**
 * What a driver implements to run TPROC-H (`Driver.workloads.tproch`): the
 * schema lifecycle on an admin connection, the bulk loader, and one query
 * session per stream (queries, EXPLAIN, cancel, refresh functions).
 */
export interface TprochHooks<T> {
  /**
   * What the engine does with TPROC-H's options, reported in the server's
   * capabilities (`workloadFeatures.tproch`) so clients show only what
   * applies: `dop` = the engine applies a per-session degree of parallelism
   * (TprochStreamOptions.dop); without it the option is ignored.
   */
  readonly features: { readonly dop: boolean };
  /** The bulk format the loader wants generated rows in. */
  bulkFormat(target: T): BulkFormat;
  openAdmin(target: T, log: Logger): Promise<TprochAdmin>;
  openLoader(target: T, log: Logger): Promise<TprochLoader>;
  /** One query stream's connection (power stream, throughput stream or refresh stream). */
  openStream(target: T, opts: TprochStreamOptions): Promise<TprochStream>;
  /** Optional: load scripts for a TPROC-H datagen directory (the engine's own bulk tool). */
  datagenScripts?(layout: TprochDatagenLayout): DatagenScript[];
}

export interface TprochSchemaState {
  /** The TPROC-H tables are there (at least SUPPLIER). */
  exists: boolean;
  /** count(supplier) / 10000 (HammerDB's SF check), 0 when empty or missing. */
  scaleFactor: number;
}

export interface TprochBuildOptions {
  scaleFactor: number;
  buildVus: number;
}

export interface TprochAdmin extends EngineSession {
  schemaState(): Promise<TprochSchemaState>;
  /** Create database and user where the engine has them, then the eight tables (no keys). */
  createSchema(o: TprochBuildOptions): Promise<void>;
  /** After loading: primary keys, foreign keys and their indexes, statistics. `step` reports each statement group. */
  finishSchema(o: TprochBuildOptions, step?: (what: string) => void): Promise<void>;
  /** Row count per table (check). */
  rowCounts(): Promise<Record<TprochTable, number>>;
  /** Drop the schema (database and user where the engine has them). Idempotent. */
  dropSchema(): Promise<void>;
  /** Optional: throw SLEDGE_E_SCHEMA_EXISTS when createSchema would refuse this target, changing nothing. */
  assertBuildable?(): Promise<void>;
  /**
   * Optional capability, as TPROC-C's AdminSession.discardCreated: after a
   * build failed, drop what this session's createSchema created and nothing
   * else (the database it created, the role it created; ones that existed
   * before stay). Returns what it dropped, in words, for the build's output.
   */
  discardCreated?(): Promise<string[]>;
}

export interface TprochLoader {
  /** Load the tables of one generated unit (driver's bulkFormat) and commit. Called sequentially. */
  load(tables: readonly TprochGeneratedTable[]): Promise<void>;
  close(): Promise<void>;
}

export interface TprochStreamOptions {
  /** Stream number (0 = power, 1..S throughput, S+1 refresh) for session names (application_name sledge-tproch-<n>). */
  stream: number;
  /** Degree of parallelism for this session (PostgreSQL max_parallel_workers_per_gather...); engines without one ignore it. */
  dop: number;
  /** Server-side statement timeout in seconds; 0 = none. */
  queryTimeoutSec: number;
  log: Logger;
}

/** A TPROC-H query ready to run (the stream shape's query text: ../shapes/stream.ts). */
export type TprochQueryText = StreamQueryText;

/** The outcome of one timed query. */
export type TprochQueryRun = StreamQueryRun;

/** One update set's rows for RF1, grouped per order (an order and its 1..7 lineitems). */
export interface TprochNewOrder {
  order: Value[];
  lineitems: Value[][];
}

export interface TprochRefreshOptions {
  /** ms slept before every order (HammerDB trickle_refresh). */
  trickleMs: number;
  /** Orders per commit (1000). */
  commitEvery: number;
  /** Checked before each order: stop early when true. */
  stopped(): boolean;
}

/** A TPROC-H stream's session: the stream shape's session (query, explain, cancel) plus the refresh functions. */
export interface TprochStream extends StreamSession {
  /** RF1: insert the orders and their lineitems (deferred lineitem→orders FK where the engine has it). */
  newSales(orders: readonly TprochNewOrder[], o: TprochRefreshOptions): Promise<void>;
  /** RF2: delete the lineitems, then the orders, of these order keys. */
  oldSales(orderKeys: readonly number[], o: TprochRefreshOptions): Promise<void>;
}

/** One generated CSV file of a TPROC-H datagen directory. */
export interface TprochDatagenFile {
  table: TprochTable;
  worker: number;
  file: string;
  rows: number;
}

export interface TprochDatagenLayout {
  dir: string;
  seed: number;
  scaleFactor: number;
  workers: number;
  files: TprochDatagenFile[];
}

/** A driver's TPROC-H hooks; SLEDGE_E_DRIVER_UNAVAILABLE when the engine does not run TPROC-H. */
export function tprochHooks<T extends Target>(driver: Driver<T>): TprochHooks<T> {
  const h = driver.workloads.tproch;
  if (!h) {
    const why = driver.notOffered?.['tproch'];
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver does not run TPROC-H${why ? `: ${why}` : ''}`, { field: 'target.engine' });
  }
  return h;
}
