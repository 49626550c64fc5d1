import type { BuildProgress } from '@sledge/protocol';
import type { ProgressPoint } from '../live/jobState.js';

export interface Bar {
  label: string;
  done: number;
  expected: number;
  /** 0..1 */
  fraction: number;
  /** Whole percent to show: 100 only when every row is there, never above (see percentOf). */
  percent: number;
  finished: boolean;
}

export interface ProgressSummary {
  tables: Bar[];
  workers: Bar[];
  rows: number;
  expected: number;
  fraction: number;
  /** Whole percent of all rows (percentOf). */
  percent: number;
  /** Rows per second over the recent trail (or the whole build when finished). */
  rowsPerSec: number;
  /** Seconds left at the current rate, or undefined when unknown. */
  etaSec: number | undefined;
}

/** What one build worker loads, as its workload describes it: the bar's label and the rows it is expected to load (an estimate). */
export interface BuildWorkerShare {
  label: string;
  expected: number;
}

/** A workload's description of its build workers (WorkloadUi.buildWorker); TPROC-C's when none is given. */
export type BuildWorkerOf = (w: BuildProgress['workers'][number], p: BuildProgress) => BuildWorkerShare;

/** A build worker a workload does not describe: its rows, without a share to measure them against. */
export const plainWorker: BuildWorkerOf = (w) => ({ label: w.worker === 1 ? 'monitor' : 'loader', expected: 0 });

const frac = (done: number, expected: number) => (expected > 0 ? Math.min(1, done / expected) : done > 0 ? 1 : 0);

/**
 * The whole percent a bar shows for `done` of `expected` rows: rounded down,
 * so 99.99% reads 99% and 100% means every row is there; never above 100.
 */
export function percentOf(done: number, expected: number): number {
  if (expected <= 0) return done > 0 ? 100 : 0;
  if (done >= expected) return 100;
  return Math.min(99, Math.floor((done / expected) * 100));
}

/** A <progress> value out of 1000 for a bar: full only at 100%. */
export function progressValue(bar: Pick<Bar, 'fraction' | 'percent'>): number {
  return bar.percent >= 100 ? 1000 : Math.min(999, Math.floor(bar.fraction * 1000));
}

/**
 * Per-table and per-worker bars, rows/s and ETA for a build. `workerOf`
 * describes a worker (its workload's WorkloadUi.buildWorker: its tables and
 * units). `complete`: the build job completed, so
 * every worker is shown complete even when its last frame was not seen.
 */
export function summarizeProgress(p: BuildProgress, trail: readonly ProgressPoint[], elapsedMs?: number, workerOf: BuildWorkerOf = plainWorker, complete = false): ProgressSummary {
  const finishedBuild = complete || p.phase === 'done';
  const tableNames = Object.keys(p.expected);
  const perTable = new Map<string, number>();
  for (const w of p.workers) for (const [t, n] of Object.entries(w.rows)) perTable.set(t, (perTable.get(t) ?? 0) + n);
  for (const t of perTable.keys()) if (!tableNames.includes(t)) tableNames.push(t);
  const tables: Bar[] = tableNames.map((t) => {
    const done = perTable.get(t) ?? 0;
    const expected = p.expected[t] ?? 0;
    return { label: t, done, expected, fraction: frac(done, expected), percent: percentOf(done, expected), finished: finishedBuild || (expected > 0 && done >= expected) };
  });
  const workers: Bar[] = p.workers.map((w) => {
    const done = Object.values(w.rows).reduce((a, b) => a + b, 0);
    const { label, expected } = workerOf(w, p);
    // A worker's expected rows are an estimate (a share of the tables', or every table's where workers share queues):
    // 100% only when it reports done, and every worker once the build is done.
    const complete = w.done || finishedBuild;
    const percent = complete ? 100 : Math.min(99, percentOf(done, expected));
    return { label: `Worker ${w.worker} · ${label}`, done, expected: Math.round(expected), fraction: complete ? 1 : frac(done, expected), percent, finished: complete };
  });
  const rows = tables.reduce((a, b) => a + b.done, 0);
  const expected = tables.reduce((a, b) => a + b.expected, 0);
  let rowsPerSec = 0;
  const recent = trail.slice(-10);
  if (recent.length >= 2) {
    const a = recent[0]!;
    const b = recent[recent.length - 1]!;
    if (b.ts > a.ts) rowsPerSec = ((b.rows - a.rows) * 1000) / (b.ts - a.ts);
  }
  if ((rowsPerSec <= 0 || p.phase === 'done') && elapsedMs && elapsedMs > 0) rowsPerSec = (rows * 1000) / elapsedMs;
  const left = Math.max(0, expected - rows);
  const etaSec = p.phase === 'done' ? 0 : rowsPerSec > 0 ? left / rowsPerSec : undefined;
  return { tables, workers, rows, expected, fraction: frac(rows, expected), percent: percentOf(rows, expected), rowsPerSec, etaSec };
}
