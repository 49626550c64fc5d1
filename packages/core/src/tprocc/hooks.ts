import { SledgeError, parseTproccSchema, tproccSchemaFields, tproccSchemaOf, type EngineId, type Target, type TproccMix, type TproccSchema, type TproccSchemaOf, type TproccTable, type TxType } from '@sledge/protocol';
import type { Driver, EngineSession, Logger } from '../driver.js';
import type { BulkFormat } from '../bulk/encode.js';
import type { BuildSchedule } from './plan.js';
import type { GeneratedTable } from './generate.js';
import type { CheckFacts } from './check.js';
import type { TxInputs } from './inputs.js';
import type { DatagenScript } from '../bulk/datagen.js';

declare module '../driver.js' {
  interface DriverWorkloads<T extends Target> {
    /** TPROC-C: the engine's sessions, admin, loader and capabilities; they get the target with the job's TPROC-C schema options merged in (tproccTarget). */
    tprocc?: TproccHooks<TproccTarget<T>>;
  }
}

/**
 * What a driver implements to run TPROC-C (`Driver.workloads.tprocc`): the
 * schema lifecycle and checks on an admin connection, the bulk loader, the
 * VU sessions, and optional capabilities (a native VU loop, datagen load
 * scripts). Engine concerns (connecting, error classes, ASH) stay on the Driver.
 */
export interface TproccHooks<T> {
  /** The bulk format the loader session wants generated rows in. */
  bulkFormat(target: T): BulkFormat;
  /** How the build's range workers share out the units (default 'ranges'); SLEDGE_BUILD_SCHEDULE overrides it. */
  buildSchedule?(target: T): BuildSchedule;
  /** Monitor/admin connection: schema lifecycle, counters, version. Opens connections lazily. */
  openAdmin(target: T, log: Logger): Promise<AdminSession>;
  /** One build worker's connection. */
  openLoader(target: T, log: Logger): Promise<LoaderSession>;
  /** One virtual user's connection. */
  openVu(target: T, opts: VuSessionOptions): Promise<VuSession>;
  /**
   * Optional capability: set when the engine builds, checks and deletes
   * TPROC-C schemas (so CH-benCHmark's analytic streams have data) but runs
   * no TPROC-C transactions, to the reason and what to do instead (DuckDB:
   * optimistic concurrency). A TPROC-C run is refused with it before it is
   * stored, CH-benCHmark runs there with tprocc.vus 0 only, capabilities
   * show it, and openVu throws it.
   */
  readonly noTransactions?: string;
  /**
   * Optional capability: a native (C++) VU loop that runs this engine's
   * transactions without returning to JavaScript per transaction. The server
   * uses it when the loop loads and the run's options allow it, and falls
   * back to openVu() otherwise. The native loop must behave exactly like the
   * engine's VuSession (same statements, same parameters in txValues order,
   * same rollback and error rules).
   */
  readonly nativeVu?: NativeVuLoop<T>;
  /**
   * Optional capability: the load scripts (and control/format files) a
   * `datagen` directory holds for this engine, ingesting the CSV files with
   * the engine's own tool. Pure: returns the files' names and text; the
   * server writes them.
   */
  datagenScripts?(layout: DatagenLayout): DatagenScript[];
}

// ------------------------------------------------------------ admin session

export interface BuildOptions {
  warehouses: number;
  buildVus: number;
}

export interface SchemaState {
  /** The TPROC-C tables are there (at least WAREHOUSE). */
  exists: boolean;
  /** max(w_id), 0 when empty or missing. */
  warehouses: number;
}

export interface Counters {
  /** sum(district.d_next_o_id). */
  nopm: number;
  /** The engine's cumulative commit+rollback counter (hammerdb.md §6.5); null for client-side engines. */
  tpm: number | null;
  /**
   * Optional: names the tpm counter's lifetime (PostgreSQL: postmaster start
   * and statistics reset time). A change means the counter restarted.
   */
  epoch?: string;
}

export interface AdminSession extends EngineSession {
  /** Is the schema there, and how many warehouses does it hold? Missing database = { exists: false }. */
  schemaState(): Promise<SchemaState>;
  /** Create database and user where the engine has them (as superuser), then the tables. */
  createSchema(o: BuildOptions): Promise<void>;
  /** After loading: indexes/constraints, transaction routines, statistics. */
  finishSchema(o: BuildOptions): Promise<void>;
  /** Read what checkschema evaluates (see core evaluateCheck). `sample` = warehouses for C1-C4. */
  checkFacts(sample: number[]): Promise<CheckFacts>;
  /** Drop the schema (database and user where the engine has them). Idempotent. */
  dropSchema(): Promise<void>;
  /**
   * Optional capability: after a build failed, drop what this session's
   * createSchema created and nothing else: the database it created, the
   * user/role it created (one that existed before stays). Returns what it
   * dropped, in words, for the build's output.
   */
  discardCreated?(): Promise<string[]>;
  readCounters(): Promise<Counters>;
  /** Optional post-run maintenance (vacuum, checkpoint, purge) when the target asks for it. */
  afterRun(): Promise<void>;
  /**
   * Optional capability: throw SLEDGE_E_SCHEMA_EXISTS (on the field to change)
   * when createSchema would refuse this target, changing nothing. The server
   * calls it at a build's preflight so the job is refused before it is
   * stored. Engines without it are checked by schemaState() only.
   */
  assertBuildable?(): Promise<void>;
}

// ------------------------------------------------------------ loader and VUs

export interface LoaderSession {
  /**
   * Load the tables of one generated unit (in the driver's bulkFormat) and
   * commit. Called sequentially; the caller generates the next unit while
   * this one's promise is pending.
   */
  load(tables: readonly GeneratedTable[]): Promise<void>;
  close(): Promise<void>;
}

export interface VuSessionOptions {
  /** VU position (2.. for workers), for session names (application_name etc.). */
  vu: number;
  /** The job's session tag: name the session vuSessionName(vu, tag) so the job's ASH knows its own VUs. */
  tag?: string;
  log: Logger;
}

export type TxOutcome = 'commit' | 'rollback';

export interface VuSession {
  /**
   * Run one transaction to its end: 'commit', or 'rollback' for the
   * specified new-order rollback. Database errors throw (classified by the
   * driver's classifyError); the session stays usable unless the error is a
   * lost connection.
   */
  run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> | TxOutcome;
  close(): Promise<void>;
  /**
   * Optional, for engines sampled client-side (SQLite): milliseconds the last
   * run() spent waiting for a lock rather than executing.
   */
  lastWaitMs?(): number;
}

// ---------------------------------------------------------- native VU loop

/** What a native VU loop runs: one connection per VU and the five transactions' statements, per client library. */
export type NativeVuSpec = LibpqVuSpec | LibmariadbVuSpec;

/** A libpq-speaking native VU loop: one connection per VU, the five prepared statements. */
export interface LibpqVuSpec {
  kind: 'libpq';
  /** libpq connection string, application_name excluded (the loop sets sledge-vu-<n>[~<sessionTag>]); contains the password. */
  conninfo: string;
  /** The statement each transaction executes as a prepared statement, in TX_TYPES order of parameters (see txValues). */
  statements: Record<TxType, string>;
  /** SQLSTATE that means the new-order rollback (outcome 'rollback', not an error). */
  rollbackSqlstate: string;
}

/**
 * A MariaDB C connector (libmariadb) native VU loop: one connection per VU,
 * each transaction one text-protocol CALL with its `?` filled in as mysql2
 * does; NEWORD's rolled_back column is the new-order rollback.
 */
export interface LibmariadbVuSpec {
  kind: 'libmariadb';
  host: string;
  port: number;
  /** A Unix socket instead of host and port ('' for none). */
  socket: string;
  user: string;
  /** Contains the password: never logged. */
  password: string;
  database: string;
  /** The CALL of each transaction with `?` placeholders, in the procedures' argument order. */
  statements: Record<TxType, string>;
}

/** A native VU loop a driver offers (driver-postgresql: the libpq loop of worker-native). */
export interface NativeVuLoop<T> {
  /** How log lines name it, e.g. "the native libpq loop". */
  readonly name: string;
  /** What the loop runs for this target (statements, connection, rollback rule). */
  spec(target: T): NativeVuSpec;
  /** Load the loop in this thread; `addonPath` loads that file instead (tests). Never throws. */
  load(addonPath?: string): NativeVuLoad<T>;
  /** Optional: why the loop cannot run this target's VUs (a target setting it does not implement); undefined when it can. */
  unsupported?(target: T): string | undefined;
  /** What running this engine's VUs in JavaScript instead costs, as measured (capabilities says it when the loop does not load). */
  readonly javascriptCost?: string;
}

export type NativeVuLoad<T> = { available: true; start(target: T, opts: NativeVuStartOptions): NativeVuHandle } | { available: false; reason: string };

export interface NativeVuAssignment {
  /** Index into the shared counters and states. */
  index: number;
  /** HammerDB VU position (2..): session name sledge-vu-<position>, the input stream. */
  position: number;
  startDelayMs: number;
}

export interface NativeVuStartOptions {
  seed: number;
  warehouses: number;
  activeVus: number;
  allWarehouse: boolean;
  mix: TproccMix;
  totalIterations: number;
  iterations: number;
  repeatDelayMs: number;
  keyAndThink: boolean;
  /** Keying and mean thinking seconds per transaction type (tprocc.keyThink with TPC-C's times filled in). */
  keyThink?: Record<string, { keyingSec: number; thinkMeanSec: number }>;
  raiseError: boolean;
  /** The test driver: a log line per transaction. */
  testDriver: boolean;
  /** The job's session tag: the loop names its sessions sledge-vu-<position>~<tag> (vuSessionName). */
  sessionTag?: string;
  vus: NativeVuAssignment[];
  /** Shared Int32Arrays of the run (server shared/layout.ts). */
  counters: Int32Array;
  states: Int32Array;
  control: Int32Array;
  /** Reopen lost sessions (tprocc.reconnect; default true). */
  reconnect?: boolean;
  /** The faults block (errors by class, sessions lost and back) and the run's VU count that sizes it. */
  faults?: Int32Array;
  faultVus?: number;
}

/** One VU thread's end state: measured-window span and time per type (TX_TYPES order). */
export interface NativeVuResult {
  ok: boolean;
  elapsedMs: number;
  totalNs: number[];
}

export interface NativeVuHandle {
  /** VU slots (positions in opts.vus). */
  readonly slots: number;
  /** Hands every queued latency record to onRecord; returns how many. */
  drainLatency(onRecord: (slot: number, tx: TxType, us: number, measuring: boolean) => void): number;
  /** Log lines queued since the last poll, and how many VU threads still run. */
  poll(): { live: number; logs: { vu: number; text: string }[] };
  /** Per slot, once poll().live is 0. */
  results(): NativeVuResult[];
  /** Abort and join the threads (if any still run); the handle is unusable after. */
  dispose(): void;
}

// ------------------------------------------------------------------ datagen

/** One generated CSV file of a datagen directory. */
export interface DatagenFile {
  table: TproccTable;
  worker: number;
  /** File name inside the directory, e.g. stock_2.csv. */
  file: string;
  rows: number;
}

export interface DatagenLayout {
  /** Absolute directory. */
  dir: string;
  seed: number;
  warehouses: number;
  workers: number;
  timestamp: string;
  files: DatagenFile[];
}


/**
 * A target as the TPROC-C hooks see it: the connection settings with the
 * workload's schema options (`tprocc.schema`: partition, storedProcs,
 * tablespaces ...) merged in, typed per engine.
 */
export type TproccTarget<T extends Target = Target> = T extends Target ? T & TproccSchemaOf<T['engine']> : never;
/** The TPROC-C schema options of a target type's engine. */
export type TproccSchemaFor<T extends Target> = T extends Target ? TproccSchemaOf<T['engine']> : never;

/**
 * The target the TPROC-C hooks get: `target` with the job's schema options
 * (cfg.tprocc.schema). Left out, they are the ones `target` already carries
 * (a merged target, an old-shape one) with the engine's defaults for the rest.
 * Every call of a TPROC-C hook goes through it.
 */
export function tproccTarget<T extends Target>(target: T, schema?: TproccSchema): TproccTarget<T> {
  return { ...target, ...(schema ?? parseTproccSchema(target.engine, tproccSchemaOf(target as T & Record<string, unknown>))) } as TproccTarget<T>;
}

/**
 * A flat object holding target fields and TPROC-C schema options together
 * (connection URLs, test fixtures) split in two: the target's fields and
 * the schema options of `engine`.
 */
export function splitTproccFields(engine: EngineId, flat: Record<string, unknown>): { target: Record<string, unknown>; schema: Record<string, unknown> } {
  const names = tproccSchemaFields(engine);
  const target: Record<string, unknown> = {};
  const schema: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) (names.includes(k) ? schema : target)[k] = v;
  return { target, schema };
}

/** A driver's TPROC-C hooks; SLEDGE_E_DRIVER_UNAVAILABLE when the engine does not run TPROC-C. */
export function tproccHooks<T extends Target>(driver: Driver<T>): TproccHooks<TproccTarget<T>> {
  const h = driver.workloads.tprocc;
  if (!h) {
    const why = driver.notOffered?.['tprocc'];
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver does not run TPROC-C${why ? `: ${why}` : ''}`, { field: 'target.engine' });
  }
  return h;
}
