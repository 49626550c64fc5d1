import type { TproccTarget, TproccUnit } from '@sledge/core';
import type { EngineId, ErrorInfo } from '@sledge/protocol';

export interface BuildWorkerData {
  kind: 'build';
  engine: EngineId;
  /** The target with the build's TPROC-C schema options (tproccTarget). */
  target: TproccTarget;
  seed: number;
  timestamp: string;
  /** HammerDB position: 1 loads ITEM, 2.. load warehouse ranges. */
  worker: number;
  items: boolean;
  /** The warehouses a range worker loads rows of (its log line); null for ITEM. */
  range: { start: number; end: number; lane: string | null } | null;
  /** A range worker's units (buildPlan): the queues, the one it starts on, whether it goes on to the others; null for ITEM. */
  plan: { queues: TproccUnit[][]; queue: number; steal: boolean; claims: SharedArrayBuffer } | null;
  control: SharedArrayBuffer;
  /** 'auto' | 'native' | 'typescript' generator preference. */
  generator: 'auto' | 'native' | 'typescript';
}

export type FromBuildWorker =
  | { t: 'log'; text: string }
  | { t: 'progress'; worker: number; table: string; rows: number; warehouse: number | null }
  /** A unit was generated whose row count for `table` differs from the estimate in the expected total. */
  | { t: 'expected'; table: string; delta: number }
  | { t: 'done'; worker: number; generator: 'native' | 'typescript' }
  | { t: 'fatal'; error: ErrorInfo };
