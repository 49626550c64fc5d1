import type { ScriptFeedSink } from './feed.js';

/**
 * The script workload's native loop, as a driver offers it
 * (Driver.scriptNativeVu; driver-postgresql: sledge_pgvu's libpq loop): a
 * few native threads (`threads`), each driving several VUs' connections, run
 * the statements each VU's feed holds, evaluated ahead by the worker thread
 * (feed.ts), and count them in the run's shared memory.
 */

/** One VU's feed, written by the worker thread. */
export interface ScriptFeedWriter {
  /** Bytes of records the VU has not run yet. */
  backlog(): number;
  /** Sends the record held back by a full feed; false while it is still full. */
  flush(): boolean;
  /** Encodes one transaction of script `op` (`evaluate` fills the sink, returns the interpreter's error) and queues it; false when the feed is full (the record is held for flush()). */
  push(op: number, evaluate: (sink: ScriptFeedSink) => string | undefined): boolean;
}

export interface ScriptNativeStartOptions {
  /** The statements the feed's indexes name (ScriptFeedPlan.statements, the engine's placeholders). */
  statements: string[];
  /** Script names, by operation (log lines). */
  ops: string[];
  sessionTag?: string;
  vus: { index: number; position: number; startDelayMs: number }[];
  /** Native threads running the VUs (VU slot s on thread s % threads; at most one per VU). Absent: one per core. */
  threads?: number;
  /** Shared Int32Arrays of the run (server shared/layout.ts, sized for ops.length operations). */
  counters: Int32Array;
  states: Int32Array;
  control: Int32Array;
  faults?: Int32Array;
  faultVus?: number;
}

export interface ScriptNativeResult {
  ok: boolean;
  elapsedMs: number;
  /** Measured-window time per script (ns). */
  totalNs: number[];
}

export interface ScriptNativeHandle {
  readonly slots: number;
  /** The feed of VU slot `slot` (a position in opts.vus). */
  feed(slot: number): ScriptFeedWriter;
  drainLatency(onRecord: (slot: number, op: number, us: number, measuring: boolean) => void): number;
  poll(): { live: number; logs: { vu: number; text: string }[] };
  results(): ScriptNativeResult[];
  dispose(): void;
}

export interface ScriptNativeLoop<T> {
  /** How log lines name it, e.g. "the native libpq loop". */
  readonly name: string;
  /** The engine's placeholder for the n-th parameter (the statements' text). */
  placeholder(n: number): string;
  /** Why the loop cannot run this target's scripts (a target setting it does not implement), else undefined. */
  unsupported?(target: T): string | undefined;
  /** Loads the loop in this thread; `addonPath` loads that file instead (tests). Never throws. */
  load(addonPath?: string): { available: true; start(target: T, opts: ScriptNativeStartOptions): ScriptNativeHandle } | { available: false; reason: string };
}
