import type { AshSample, DriverFeatures, EngineId, Target, TxType } from '@sledge/protocol';
import type { BulkFormat } from './tprocc/encode.js';
import type { GeneratedTable } from './tprocc/generate.js';
import type { CheckFacts } from './tprocc/check.js';
import type { TxInputs } from './tprocc/inputs.js';

/**
 * The Driver contract. One implementation per engine (packages/driver-*);
 * packages/driver-testkit runs the same suite against each. Shared code never
 * branches on the engine name: it reads `features()` and calls these hooks.
 *
 * Errors: methods throw SledgeError for anything a user can fix
 * (SLEDGE_E_CONNECT, SLEDGE_E_AUTH, SLEDGE_E_SCHEMA_*), with `field` naming
 * the target field at fault where there is one (e.g. `target.port`).
 * Messages never contain passwords.
 */
export interface Driver<T extends Target = Target> {
  readonly engine: EngineId;
  /** npm package that talks to the engine, e.g. "pg". */
  readonly library: string;
  /** Does the client library load? Never throws. */
  probe(): Promise<ProbeResult>;
  features(target: T): DriverFeatures;
  /** The bulk format the loader session wants generated rows in. */
  bulkFormat(target: T): BulkFormat;
  /** Monitor/admin connection: schema lifecycle, counters, version. Opens connections lazily. */
  openAdmin(target: T, log: Logger): Promise<AdminSession>;
  /** One build worker's connection. */
  openLoader(target: T, log: Logger): Promise<LoaderSession>;
  /** One virtual user's connection. */
  openVu(target: T, opts: VuSessionOptions): Promise<VuSession>;
  /** Classify a database error thrown by a VU session. */
  classifyError(e: unknown): ErrorClass;
  /**
   * Optional capability: active-session-history sampling on its own
   * connection (called every second during builds and runs). Engines that
   * sample their sessions client-side (SQLite) leave it out and implement
   * `VuSession.lastWaitMs` instead. Throws SledgeError when sampling cannot
   * work (no privilege, a view missing, performance_schema off) with a
   * message that says what to grant or enable; the job records it and runs on.
   */
  openAshSampler?(target: T, log: Logger): Promise<AshSampler>;
  /**
   * Optional capability: what a native (C++) VU loop needs to run this
   * engine's transactions without returning to JavaScript per transaction.
   * The server uses it when the worker-native addon provides a loop for
   * `spec.kind`, and falls back to openVu() otherwise. The native loop must
   * behave exactly like the engine's VuSession (same statements, same
   * parameters in txValues order, same rollback and error rules).
   */
  nativeVuSpec?(target: T): NativeVuSpec;
  /**
   * Optional capability: the target fields that name a file on the server's
   * own disk (SQLite: `file`). The server resolves them (relative paths under
   * its files root), refuses the job store's own files, and checks before a
   * build that the file's directory can be created.
   */
  readonly localFileFields?: readonly string[];
}

/** A libpq-speaking native VU loop: one connection per VU, the five prepared statements. */
export interface NativeVuSpec {
  kind: 'libpq';
  /** libpq connection string, application_name excluded (the loop sets sledge-vu-<n>); contains the password. */
  conninfo: string;
  /** The statement each transaction executes as a prepared statement, in TX_TYPES order of parameters (see txValues). */
  statements: Record<TxType, string>;
  /** SQLSTATE that means the new-order rollback (outcome 'rollback', not an error). */
  rollbackSqlstate: string;
}

export interface AshSampler {
  /** Where the samples come from, e.g. "pg_stat_activity" or "pgsentinel". */
  readonly source: string;
  /**
   * Set when sampling works only in part (some sessions hidden, wait events
   * off): what is missing and what to grant or enable. May change after a sample.
   */
  readonly notice?: string;
  /**
   * The sessions active now (idle sessions are left out; the sampler's own
   * session too). Each sample carries the engine's event and its cross-engine
   * wait class. `vu` is set when the session is one of Sledge's
   * (application_name / program `sledge-vu-<n>`). `at` is the sampling
   * instant to stamp samples of the current state with (the caller keeps
   * one instant per second on a fixed grid; default now). A background
   * process in a deliberate sleep (PostgreSQL's checkpointer between writes,
   * an autovacuum cost delay) is returned with `idle: true`: not activity by
   * the ASH convention, counted only when a job asks for it.
   */
  sample(at?: number): Promise<AshSample[]>;
  close(): Promise<void>;
}

export type Logger = (line: string) => void;

export interface ProbeResult {
  available: boolean;
  libraryVersion?: string;
  /** Why the library does not load. */
  reason?: string;
  /** The exact steps that make it load. */
  install?: string;
}

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
}

export interface AdminSession {
  /** Server version string, e.g. "15.20". */
  serverVersion(): Promise<string>;
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
  close(): Promise<void>;
}

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

export type ErrorKind = 'deadlock' | 'serialization' | 'lock-timeout' | 'connection' | 'constraint' | 'other';

export interface ErrorClass {
  kind: ErrorKind;
  /** Safe to retry the same transaction (deadlock, serialization failure). */
  retryable: boolean;
  /** Engine error code (SQLSTATE, errno, ORA-nnnnn). */
  code?: string;
  message: string;
}
