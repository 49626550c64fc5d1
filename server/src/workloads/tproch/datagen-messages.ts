import type { TprochBuildUnit } from '@sledge/core';
import type { ErrorInfo } from '@sledge/protocol';

export interface TprochDatagenWorkerData {
  kind: 'tproch-datagen';
  dir: string;
  scaleFactor: number;
  /** 1 = REGION and NATION, 2.. the build split's workers. */
  worker: number;
  units: TprochBuildUnit[];
  control: SharedArrayBuffer;
  /** dbgen's text pool, built once for all the workers (a SharedArrayBuffer view: shared, not copied). */
  textPool: Uint8Array;
  generator: 'auto' | 'native' | 'typescript';
}

export type FromTprochDatagenWorker =
  | { t: 'log'; text: string }
  | { t: 'progress'; worker: number; table: string; rows: number; bytes: number; file: string }
  | { t: 'done'; worker: number; generator: 'native' | 'typescript' }
  | { t: 'fatal'; error: ErrorInfo };

/** A worker's file of one table: `<table>.tbl.<worker>` (dbgen's .tbl naming, one part per worker). */
export const datagenFileName = (table: string, worker: number): string => `${table}.tbl.${worker}`;
