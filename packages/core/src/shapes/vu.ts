import type { CapacityOptions, ErrorClassName, Target } from '@sledge/protocol';
import type { Driver, Logger } from '../driver.js';
import type { ArrivalPlan } from '../arrival.js';
import type { Headline, RunContext } from './common.js';

/**
 * The VU workload shape: each virtual user loops over operations drawn from
 * a mix (TPROC-C; CH-benCHmark's transactional side). The server's generic
 * VU runner (server/src/runner/vu-run.ts) knows nothing of any benchmark: it sizes the shared counters from `operations`, asks the
 * workload for its VU plan and each VU's operation stream, runs the
 * operations on the session the workload opens on the driver, reads the
 * workload's run monitor at the window boundaries, and asks the monitor for
 * the result and its lines.
 *
 * Engines plug in below: a driver declares, per workload it supports, the
 * hooks that workload needs (`Driver.workloads[id]`, typed by the workload's
 * own hooks interface, e.g. core/tprocc/hooks.ts `TproccHooks`). Only the
 * workload's own module calls those hooks.
 *
 * Every method is pure or talks to the database through the driver; the
 * module loads in worker threads as well as in the main thread (a VU worker
 * imports the workload by module specifier, see the server's workload
 * registry), so it holds no server state.
 */

/** One operation chosen for a VU: which one (index into `operations`) and its input. */
export interface NextOp<In = unknown> {
  op: number;
  input: In;
}

/** Where a VU stands when it asks for its operation stream. */
export interface OpStreamContext<Options = unknown, Params = unknown> {
  seed: number;
  options: Options;
  /** What the run monitor found before the run (RunSetup.params), e.g. the schema's warehouse count. */
  params: Params;
  /** HammerDB VU position: 2.. (1 is the monitor). */
  position: number;
  /** VUs running in this job (for per-VU partitioning of keys). */
  activeVus: number;
  /** Distinguishes streams of one VU (async clients, repeated iterations). */
  client: number;
}

/** A VU's operation stream: deterministic for a seed, position and client. */
export interface OpStream<In = unknown> {
  next(): NextOp<In>;
  /** Keying time before the operation (ms); 0 when the workload has none or it is off. */
  keyingMs(op: number): number;
  /** Think time after the operation (ms); 0 when none or off. Drawn after the operation ran. */
  thinkMs(op: number): number;
  /** One line for test-mode output: the operation's input in words. */
  describe(op: number, input: In): string;
  /** Lines printed once when the VU starts (e.g. its warehouse assignment). */
  banner?(): string[];
}

/** What a VU's session is opened with. */
export interface SessionOptions {
  /** VU position (2..), for session names (application_name etc.). */
  vu: number;
  /** The job's session tag: session names are vuSessionName(vu, tag), so the job's ASH knows its own VUs. */
  tag?: string;
  log: Logger;
}

/** How an operation ended when it did not throw: committed, or the workload's expected rollback. */
export type OpOutcome = 'commit' | 'rollback';

/** One VU's connection, as the workload drives it: runs operation `op` of `operations` with its input. */
export interface OpSession<In = unknown> {
  /** Database errors throw (classified by the driver's classifyError); the session stays usable unless the connection is lost. */
  run(op: number, input: In): Promise<OpOutcome> | OpOutcome;
  close(): Promise<void>;
  /** Optional, for engines sampled client-side (SQLite): ms the last run() waited for a lock. */
  lastWaitMs?(): number;
}

/**
 * How the runner drives the VUs, from the workload's options: HammerDB's
 * driver settings, which every workload's VU loop shares.
 */
export interface VuPlan {
  vus: number;
  /** 'timed': rampup, then a measured window between two monitor readings; 'test': every VU runs its operations and prints each. */
  mode: 'timed' | 'test';
  /** Operations per VU per iteration (HammerDB total_iterations). */
  opsPerIteration: number;
  /** Script repeats per VU, with `repeatDelayMs` between them. */
  iterations: number;
  repeatDelayMs: number;
  /** A database error ends the VU (failed) instead of being counted. */
  raiseError: boolean;
  /** Keying and thinking times are on (the stream's keyingMs/thinkMs are slept). */
  paced: boolean;
  /** Asynchronous scaling: each VU runs `clients` concurrent clients, started `clientDelayMs` apart. */
  async: boolean;
  clients: number;
  clientDelayMs: number;
  /** Log every async client step (HammerDB's async_verbose): login, transaction, keying and thinking times. */
  asyncVerbose?: boolean;
  /** ms between VU starts. */
  userDelayMs: number;
  /** Worker threads hosting the VUs; 0 = the runner decides. */
  workers: number;
  rampupMinutes: number;
  durationMinutes: number;
  /** Per-VU rows in the time profile (summary rows are always there). */
  timeProfile: boolean;
  /** Seconds between the monitor's live readings. */
  monitorIntervalSec: number;
  /** Failover (run/errors.ts): reconnect lost sessions (default true), tries per operation (default 1) and the error classes retried. */
  reconnect?: boolean;
  maxTries?: number;
  retryOn?: readonly ErrorClassName[];
  /** Step loads: VU counts over time (vus = the largest step); VUs beyond the current step's count idle. */
  steps?: StepPlan[];
  /** Arrival-rate mode: `vus` sessions take arrivals at the planned rate (open model). */
  arrival?: ArrivalPlan;
  /** Capacity at an SLO: the runner steers the arrival rate (arrival.steered) to the highest that meets the SLO, then holds it as the measured window. */
  capacity?: CapacityOptions;
}

/** One step of a step load, in seconds after the VUs are released. */
export interface StepPlan {
  index: number;
  vus: number;
  startSec: number;
  endSec: number;
}

/** Totals of the shared counters for one operation, over all VUs. */
export interface OpTotals {
  commits: number;
  rollbacks: number;
  errors: number;
}

/** What the monitor found before a run: the streams' parameters and how to describe the run. */
export interface RunSetup<Params = unknown> {
  /** Handed to every VU's stream (OpStreamContext.params) and the native loop. */
  params: Params;
  /** Text after "N VU(s) on M worker thread(s); " in the monitor's output. */
  summary: string;
  /** The workload's fields of the job's 'run' metric (the runner adds vus and workers). */
  runInfo: Record<string, number>;
}

/** The measured window, as the runner saw it, for the result. */
export interface RunWindow<Reading = unknown> {
  start: Reading;
  end: Reading;
  seconds: number;
  /** Operations the VUs counted (commits + rollbacks) in the window. */
  clientOps: number;
  /** The same per operation (index as in `operations`), and the errors per operation in the window. */
  perOp?: number[];
  errorsPerOp?: number[];
  /** Client CPU per 1000 operations in the window, when there were any. */
  clientCpuMsPer1000?: number;
  vus: number;
}

/** A run's result and the lines the monitor prints for it (the result line among them). */
export interface RunOutcome<Result = unknown> {
  result: Result;
  lines: string[];
}

/** The monitor's live figure for one interval (the engine chart): ts plus the workload's rates. */
export type LiveSample = { ts: number } & Record<string, number>;

/**
 * The run's monitor (HammerDB's VU 1): its own connection, read at the
 * window boundaries and every `monitorIntervalSec` for the live chart.
 */
export interface RunMonitor<Params = unknown, Reading = unknown, Result = unknown> {
  serverVersion(): Promise<string>;
  /** Checks the target holds what a run needs (the schema) and returns the run's parameters. */
  prepare(): Promise<RunSetup<Params>>;
  /** The workload's counters now (a window boundary or a live reading). */
  read(): Promise<Reading>;
  /** The live sample for a reading taken at `ts`; keeps the previous reading itself. `clientOps`: the VUs' cumulative count. */
  live(reading: Reading, ts: number, clientOps: number, intervalSec: number): LiveSample;
  /** The result of the measured window. */
  result(w: RunWindow<Reading>): RunOutcome<Result>;
  /** The workload's figures for any window between two readings (e.g. one step of a step load): { nopm, tpm } for TPROC-C. */
  windowFigures?(w: RunWindow<Reading>): Record<string, number>;
  /** Post-run maintenance, if the target asks for it. */
  afterRun(): Promise<void>;
  /** Times the monitor's own session was lost and reopened (monitors that reconnect). */
  reconnects?(): number;
  close(): Promise<void>;
}

export interface VuWorkload<Options = unknown, Params = unknown, Result = unknown> {
  readonly shape: 'vu';
  /** Registry key and the job body's `workload` value, e.g. 'tprocc'. */
  readonly id: string;
  /** Display name, e.g. 'TPROC-C'. */
  readonly name: string;
  /** Operation names; their order sizes and indexes the shared counters. */
  readonly operations: readonly string[];
  /** HammerDB-style names of the operations for reports (time profile rows, error lines), same order. */
  readonly operationLabels: readonly string[];
  /** Operation names in words for output lines (test-mode lines, error lines), same order. */
  readonly operationTitles: readonly string[];
  /** Is a rollback an expected outcome (TPROC-C new-order 1%), counted apart from errors? */
  readonly rollbackIsOutcome?: boolean;
  /** How the runner drives the VUs for these options. */
  vuPlan(options: Options): VuPlan;
  /** A VU's operation stream for a run. */
  stream(ctx: OpStreamContext<Options, Params>): OpStream;
  /** One VU's session on the driver (the driver's hooks for this workload). */
  openSession(driver: Driver, target: Target, opts: SessionOptions, options: Options): Promise<OpSession>;
  /** The run's monitor on its own connection. */
  openMonitor(ctx: RunContext<Options>): Promise<RunMonitor<Params, unknown, Result>>;
  /** The result's headline figure. */
  headline(result: Result): Headline;
  /**
   * Optional: the workload as one job's options make it, for a workload whose
   * operations depend on its options (the script workload: one operation per
   * script). The runner, its VU workers and replicas all use what it returns.
   */
  forOptions?(options: Options): VuWorkload<Options, Params, Result>;
}
