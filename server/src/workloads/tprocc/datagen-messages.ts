import type { ErrorInfo, TproccTable } from '@sledge/protocol';

/** What a datagen worker thread is given. */
export interface DatagenWorkerData {
  kind: 'datagen';
  /** Absolute output directory. */
  dir: string;
  seed: number;
  timestamp: string;
  /** 1 writes ITEM; 2.. write the warehouse range. */
  worker: number;
  range: { start: number; end: number } | null;
  /** Units already complete (resume point) and the file lengths / rows at that point. */
  startUnit: number;
  bytes: Partial<Record<TproccTable, number>>;
  rows: Partial<Record<TproccTable, number>>;
  control: SharedArrayBuffer;
  generator: 'auto' | 'native' | 'typescript';
}

export type FromDatagenWorker =
  | { t: 'log'; text: string }
  /** After a unit is completely written: cumulative unit count, file lengths and rows. */
  | {
      t: 'unit';
      worker: number;
      units: number;
      warehouse: number | null;
      bytes: Partial<Record<TproccTable, number>>;
      rows: Partial<Record<TproccTable, number>>;
    }
  | { t: 'done'; worker: number; generator: 'native' | 'typescript' }
  | { t: 'fatal'; error: ErrorInfo };
