import type { AshSample, AshScope, DriverFeatures, EngineId, Target } from '@sledge/protocol';
import type { QuerySession, QuerySessionOptions } from './shapes/stream.js';
import type { ParamSession, ParamSessionOptions } from './param-session.js';
import type { ScriptNativeLoop } from './script/native.js';

/**
 * The Driver contract. One implementation per engine (packages/driver-*);
 * packages/driver-testkit runs the same suite against each. Shared code never
 * branches on the engine name: it reads `features()` and the declared
 * capabilities, and calls these hooks. The Driver itself holds engine
 * concerns only (connecting, error classes, ASH); each workload's parts are
 * in `workloads.<id>` (TPROC-C: core/tprocc/hooks.ts).
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
  /** `target` may carry a workload's schema options (TPROC-C: tproccTarget): `features.partition` follows them. */
  features(target: T): DriverFeatures;
  /**
   * An engine-level session on the target (no workload schema needed): the
   * server version for /targets/test. Opens connections lazily.
   */
  openSession(target: T, log: Logger): Promise<EngineSession>;
  /** Classify a database error thrown by a VU session. */
  classifyError(e: unknown): ErrorClass;
  /**
   * Optional capability: active-session-history sampling on its own
   * connection (called every second during builds and runs). Engines that
   * sample their sessions client-side (SQLite) leave it out and implement
   * `VuSession.lastWaitMs` instead. Throws SledgeError when sampling cannot
   * work (no privilege, a view missing, performance_schema off) with a
   * message that says what to grant or enable; the job records it and runs on.
   * `opts.scope` (default 'database') limits the sessions sampled to the
   * target's database and its roles; `opts.vuTag` is the job's session tag
   * (see AshSamplerOptions).
   */
  openAshSampler?(target: T, log: Logger, opts?: AshSamplerOptions): Promise<AshSampler>;
  /**
   * Optional capability: a query session on the target's database (see
   * QuerySession: statements, timed queries with DOP and timeout, explain,
   * cancel), for workloads that bring their own SQL (CH-benCHmark). The
   * target's schema must exist; the session connects as the target's user.
   */
  openQuerySession?(target: T, opts: QuerySessionOptions): Promise<QuerySession>;
  /**
   * Optional capability: a session that runs a caller's statements with
   * bound parameters in the engine's placeholder syntax, in transactions the
   * caller opens (ParamSession): the script workload's VU session. Connects
   * as the target's user to its database.
   */
  openParamSession?(target: T, opts: ParamSessionOptions): Promise<ParamSession>;
  /**
   * Optional capability: its parameter sessions have `pipeline()` (one Sync
   * per pipeline: pgbench's `\startpipeline`). Scripts with a pipeline are
   * refused, before the job is stored, on an engine without it.
   */
  readonly paramPipelines?: boolean;
  /**
   * Optional capability: a native loop for the script workload's VUs
   * (script/native.ts), for scripts that can be evaluated ahead
   * (script/feed.ts notFeedable); the server picks it per run (vuLoop).
   */
  readonly scriptNativeVu?: ScriptNativeLoop<T>;
  /**
   * Optional capability: the target fields that name a file on the server's
   * own disk (SQLite: `file`). The server resolves them (relative paths under
   * its files root), refuses the job store's own files, and checks before a
   * build that the file's directory can be created.
   */
  readonly localFileFields?: readonly string[];
  /**
   * The target field that names where a workload's schema lives: 'file'
   * (SQLite) or 'database' (server engines). Messages and error fields name
   * it (e.g. "choose another database", field `target.database`).
   */
  readonly schemaField: 'file' | 'database';
  /** Per-workload hooks: the workloads this engine runs, each typed by the workload's own interface. */
  readonly workloads: DriverWorkloads<T>;
  /**
   * Optional: workloads the engine deliberately does not run, by workload
   * id, each with the reason (DuckDB: TPROC-C under optimistic concurrency).
   * Capabilities show it; asking for the workload is
   * SLEDGE_E_DRIVER_UNAVAILABLE with the reason.
   */
  readonly notOffered?: Readonly<Record<string, string>>;
}

/**
 * The workloads a driver supports, by workload id. This file names none:
 * each workload's hooks module adds its key by augmenting this interface
 * (core/tprocc/hooks.ts adds `tprocc`), so imports run from the workloads
 * to the Driver contract and never back.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
export interface DriverWorkloads<T extends Target> {}

/** An engine-level connection: what every workload's admin session also offers. */
export interface EngineSession {
  /** Server version string, e.g. "15.20". */
  serverVersion(): Promise<string>;
  close(): Promise<void>;
}

/** How an ASH sampler chooses and names the sessions it samples. */
export interface AshSamplerOptions {
  /**
   * 'database' (default): only the sessions of the target's database and of
   * its roles (the target's user and superuser), plus the server's shared
   * background processes (no database, no SQL text). 'server': every
   * session; those outside the database and roles come back with
   * `outside: true`.
   */
  scope?: AshScope;
  /**
   * The job's session tag (vuSessionName): only a session named
   * `sledge-vu-<n>~<tag>` is one of the job's VUs (`vu` set). Without a tag
   * (no job: the live target view) any `sledge-vu-<n>` name counts.
   */
  vuTag?: string;
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
   * wait class. `vu` is set when the session is one of the job's VUs
   * (application_name / program `sledge-vu-<n>~<vuTag>`). `at` is the sampling
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

/** The driver's kind of an error; errorClassOf maps it to the run's error class. 'timeout' is a statement timeout or cancel. */
export type ErrorKind = 'deadlock' | 'serialization' | 'lock-timeout' | 'timeout' | 'connection' | 'constraint' | 'other';

export interface ErrorClass {
  kind: ErrorKind;
  /** Safe to retry the same transaction (deadlock, serialization failure). */
  retryable: boolean;
  /** Engine error code (SQLSTATE, errno, ORA-nnnnn). */
  code?: string;
  message: string;
}
