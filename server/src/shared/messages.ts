import type { RecordableHistogram } from 'node:perf_hooks';
import type { VuPlan } from '@sledge/core';
import type { EngineId, ErrorInfo, Target } from '@sledge/protocol';
import type { SharedBlocks } from './layout.js';
import type { HistPairs } from './sparse-hist.js';

/**
 * A module a worker thread imports by specifier (a package name or a file
 * URL) and the export it takes: how a VU worker finds the job's workload
 * (and a native VU host) without the main thread's registries.
 */
export interface ModuleRef {
  specifier: string;
  export: string;
}

export interface VuAssignment {
  /** Index into the shared counter arrays (0-based). */
  index: number;
  /** HammerDB VU position: 2.. (1 is the monitor). */
  position: number;
  /** Delay before this VU starts (user_delay staggering). */
  startDelayMs: number;
}

/** Which loop runs the VUs: 'auto' takes the native one where it applies (server option vuLoop, env SLEDGE_VU_LOOP). */
export type VuLoopPreference = 'auto' | 'native' | 'typescript';

export interface VuWorkerData {
  kind: 'vu';
  /** The loop the runner chose: a native loop (`native` hosts it), or the TypeScript one (vu-loop.ts). */
  loop: 'native' | 'typescript';
  /** The job's Workload (core), imported by the worker. */
  workload: ModuleRef;
  /** With loop 'native': the function that starts this worker's VUs in the native loop (a NativeVuHost). */
  native?: ModuleRef;
  /** With loop 'native': how many native threads run this worker's VUs, for a loop that runs several VUs on a thread (NativeLoop.threads). */
  nativeThreads?: number;
  /** Where the native loop's addon is loaded from, when not the package's own build (tests). */
  pgVuAddonPath?: string;
  engine: EngineId;
  target: Target;
  seed: number;
  /** The workload's options and the run's parameters (RunSetup.params), for its streams. */
  options: unknown;
  params: unknown;
  plan: VuPlan;
  activeVus: number;
  vus: VuAssignment[];
  /** The job's session tag: VU sessions are named vuSessionName(position, tag) (core), so the job's ASH knows them. */
  sessionTag?: string;
  shared: SharedBlocks;
  /** A replica's VUs: latency goes into SparseHists (every value kept) instead of perf_hooks histograms. */
  exactLatency?: boolean;
}

export interface LogLine {
  vu: number;
  text: string;
}

/** One VU's measured-window profile for one operation. */
export interface VuTxProfile {
  hist: RecordableHistogram;
  totalNs: number;
}
export interface VuProfile {
  position: number;
  /** Measured-window time this VU was active (ms). */
  elapsedMs: number;
  /** By operation name. */
  perType: Partial<Record<string, VuTxProfile>>;
}

export type FromVuWorker =
  | { t: 'ready' }
  | { t: 'log'; lines: LogLine[] }
  /** Interval histograms by operation name. */
  /** The interval latency since the last message: value, count pairs (µs) per operation with records. */
  | { t: 'latency'; ts: number; pairs: Partial<Record<string, HistPairs>> }
  | { t: 'profile'; vus: VuProfile[] }
  | { t: 'done' }
  | { t: 'fatal'; error: ErrorInfo };

export type ToWorker = { t: 'wake' };
