/**
 * The Workload contract: one benchmark (TPROC-C, later TPROC-H, ...) as one
 * module per layer. The server's generic runner knows nothing of any
 * benchmark: it sizes the shared counters from `operations`, asks the
 * workload for each VU's operation stream, runs the operations on the
 * driver's session for that workload, and asks the workload for the result.
 *
 * Engines plug in below: a driver declares, per workload it supports, the
 * hooks that workload needs (`Driver.workloads[id]`, typed by the workload's
 * own hooks interface, e.g. core/tprocc/hooks.ts `TproccHooks`).
 */

/** One operation chosen for a VU: which one (index into `operations`) and its input. */
export interface NextOp<In = unknown> {
  op: number;
  input: In;
}

/** Where a VU stands when it asks for its operation stream. */
export interface StreamContext<Options> {
  seed: number;
  options: Options;
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
  /** Think time after the operation (ms); 0 when none or off. */
  thinkMs(op: number): number;
  /** One line for test-mode output: the operation's input in words. */
  describe(op: number, input: In): string;
  /** Lines printed once when the VU starts (e.g. its warehouse assignment). */
  banner?(): string[];
}

/** Totals of the shared counters for one operation, over all VUs. */
export interface OpTotals {
  commits: number;
  rollbacks: number;
  errors: number;
}

/** The headline figure of a result: what the job list, profiles and compare show first. */
export interface Headline {
  /** e.g. 'nopm' */
  metric: string;
  value: number;
  /** e.g. 'NOPM' */
  unit: string;
}

export interface Workload<Options = unknown, Result = unknown> {
  /** Registry key and the job body's `workload` value, e.g. 'tprocc'. */
  readonly id: string;
  /** Display name, e.g. 'TPROC-C'. */
  readonly name: string;
  /** Operation names; their order sizes and indexes the shared counters. */
  readonly operations: readonly string[];
  /** HammerDB-style names of the operations for reports (time profile rows), same order. */
  readonly operationLabels: readonly string[];
  /** Is operation `op`'s rollback outcome an expected one (TPROC-C new-order 1%), not an error? */
  readonly rollbackIsOutcome?: boolean;
  /** A VU's operation stream for a run. */
  stream(ctx: StreamContext<Options>): OpStream;
  /** The result's headline figure. */
  headline(result: Result): Headline;
}
