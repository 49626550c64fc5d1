import type { TprochBuildUnit } from '@sledge/core';
import type { EngineId, ErrorInfo, Target } from '@sledge/protocol';

export interface TprochBuildWorkerData {
  kind: 'tproch-build';
  engine: EngineId;
  target: Target;
  scaleFactor: number;
  /** HammerDB position: 1 = the monitor's share (REGION, NATION), 2.. the build workers. */
  worker: number;
  units: TprochBuildUnit[];
  control: SharedArrayBuffer;
  /** dbgen's text pool, built once for all the workers (a SharedArrayBuffer view: shared, not copied). */
  textPool: Uint8Array;
  /** 'auto' | 'native' | 'typescript' generator preference. */
  generator: 'auto' | 'native' | 'typescript';
}

export type FromTprochBuildWorker =
  | { t: 'log'; text: string }
  | { t: 'progress'; worker: number; table: string; rows: number; base: number | null }
  | { t: 'done'; worker: number; generator: 'native' | 'typescript' }
  | { t: 'fatal'; error: ErrorInfo };
