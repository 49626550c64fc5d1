import { defaultStreams, isTprochResult, type Job, type TprochQueryTime, type TprochResult } from '@sledge/protocol';

/** The run's TPROC-H result; undefined before there is one (or for another workload's job). */
export function tprochResult(job: Pick<Job, 'result'>): TprochResult | undefined {
  return isTprochResult(job.result) ? job.result : undefined;
}

/** The job's configured TPROC-H options as stored. */
export function jobTproch(job: Pick<Job, 'config'>): Record<string, unknown> {
  const c = job.config as { tproch?: Record<string, unknown> } | null;
  return c && typeof c === 'object' && c.tproch && typeof c.tproch === 'object' ? c.tproch : {};
}

/** Query streams a run has: its result's, else as configured (power: 1; throughput and performance: the throughput test's streams, left out = the SF's TPC-H count). */
export function jobStreams(job: Pick<Job, 'config' | 'result'>): number {
  const r = tprochResult(job);
  if (r) return r.streams;
  const t = jobTproch(job);
  if (t['mode'] !== 'throughput' && t['mode'] !== 'performance') return 1;
  const s = typeof t['streams'] === 'number' ? t['streams'] : 0;
  // Stored before streams became optional, 0 meant the TPC-H count too.
  const sf = typeof t['scaleFactor'] === 'number' ? t['scaleFactor'] : 1;
  return s > 0 ? s : defaultStreams(sf);
}

/** Seconds with five decimals, as HammerDB prints query times and the geometric mean. */
export const fmtSec = (s: number | undefined): string => (s === undefined || !Number.isFinite(s) ? '–' : s.toFixed(s < 10 ? 5 : s < 100 ? 3 : 1));

/** A score (power, throughput, composite) with one decimal and thousands separators. */
export const fmtMetric = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 }));

/** One query of the job-page table: its time in each stream (of the chosen query set). */
export interface QueryRow {
  query: number;
  /** By stream number: that stream's execution of the query (absent: it did not run). */
  cells: Map<number, TprochQueryTime>;
}

export interface QueryMatrix {
  /** The streams that ran, in order (0 = the power stream). */
  streams: number[];
  /** Query sets that ran (1-based). */
  sets: number[];
  /** Q1..Q22, each with its cells for `set`. */
  rows: QueryRow[];
}

/** The result's query times as a query × stream table for one query set (the last one by default). */
export function queryMatrix(queries: readonly TprochQueryTime[], set?: number): QueryMatrix {
  const sets = [...new Set(queries.map((q) => q.set))].sort((a, b) => a - b);
  const pick = set ?? sets[sets.length - 1] ?? 1;
  const streams = [...new Set(queries.map((q) => q.stream))].sort((a, b) => a - b);
  const rows: QueryRow[] = Array.from({ length: 22 }, (_, i) => ({ query: i + 1, cells: new Map() }));
  for (const q of queries) if (q.set === pick && q.query >= 1 && q.query <= 22) rows[q.query - 1]!.cells.set(q.stream, q);
  return { streams, sets, rows };
}

/** The stream's name: 0 is the power test's stream, 1..S the throughput streams. */
export const streamName = (s: number): string => (s === 0 ? 'Power stream' : `Stream ${s}`);

/** The geometric mean of the times of queries that returned rows and did not fail (HammerDB's rule); undefined when none did. */
export function geomeanOf(times: readonly Pick<TprochQueryTime, 'seconds' | 'rows' | 'error'>[]): number | undefined {
  const ok = times.filter((t) => t.rows > 0 && !t.error && t.seconds > 0);
  if (!ok.length) return undefined;
  return Math.exp(ok.reduce((a, t) => a + Math.log(t.seconds), 0) / ok.length);
}
