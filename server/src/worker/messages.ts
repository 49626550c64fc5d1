import type { RecordableHistogram } from 'node:perf_hooks';
import type { TproccTarget } from '@sledge/core';
import type { EngineId, ErrorInfo, TproccMix, TxType } from '@sledge/protocol';
import type { SharedBlocks } from './layout.js';

/** Options a VU worker needs from the job's TPROC-C settings. */
export interface VuRunOptions {
  driver: 'test' | 'timed';
  totalIterations: number;
  keyAndThink: boolean;
  allWarehouse: boolean;
  raiseError: boolean;
  iterations: number;
  repeatDelayMs: number;
  mix: TproccMix;
  asyncScale: boolean;
  asyncClients: number;
  asyncDelayMs: number;
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
  /** The loop run-job chose (vu-loop-choice.ts): the driver's native loop, or the TypeScript one (vu-loop.ts). */
  loop: 'native' | 'typescript';
  /** Where the native loop's addon is loaded from, when not the package's own build (tests). */
  pgVuAddonPath?: string;
  engine: EngineId;
  target: TproccTarget;
  seed: number;
  warehouses: number;
  activeVus: number;
  vus: VuAssignment[];
  opts: VuRunOptions;
  shared: SharedBlocks;
}

export interface BuildWorkerData {
  kind: 'build';
  engine: EngineId;
  target: TproccTarget;
  seed: number;
  timestamp: string;
  /** HammerDB position: 1 loads ITEM, 2.. load warehouse ranges. */
  worker: number;
  items: boolean;
  range: { start: number; end: number } | null;
  control: SharedArrayBuffer;
  /** 'auto' | 'native' | 'typescript' generator preference. */
  generator: 'auto' | 'native' | 'typescript';
}

export interface LogLine {
  vu: number;
  text: string;
}

/** One VU's measured-window profile for one transaction type. */
export interface VuTxProfile {
  hist: RecordableHistogram;
  totalNs: number;
}
export interface VuProfile {
  position: number;
  /** Measured-window time this VU was active (ms). */
  elapsedMs: number;
  perType: Partial<Record<TxType, VuTxProfile>>;
}

export type FromVuWorker =
  | { t: 'ready' }
  | { t: 'log'; lines: LogLine[] }
  | { t: 'latency'; ts: number; hist: Partial<Record<TxType, RecordableHistogram>> }
  | { t: 'profile'; vus: VuProfile[] }
  | { t: 'done' }
  | { t: 'fatal'; error: ErrorInfo };

export type FromBuildWorker =
  | { t: 'log'; text: string }
  | { t: 'progress'; worker: number; table: string; rows: number; warehouse: number | null }
  /** A unit was generated whose row count for `table` differs from the estimate in the expected total. */
  | { t: 'expected'; table: string; delta: number }
  | { t: 'done'; worker: number; generator: 'native' | 'typescript' }
  | { t: 'fatal'; error: ErrorInfo };

export type ToWorker = { t: 'wake' };
