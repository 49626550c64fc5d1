import { isChbenchResult, type ChbenchAnalyticResult, type Job } from '@sledge/protocol';

/** A CH-benCHmark run's analytic result (its TPROC-C figures are read by ../tprocc/result.ts); undefined before there is one. */
export function chbenchAnalytic(job: Pick<Job, 'result'>): ChbenchAnalyticResult | undefined {
  return isChbenchResult(job.result) ? job.result.analytic : undefined;
}

/** The job's configured analytic options as stored (`config.chbench`). */
export function jobAnalytic(job: Pick<Job, 'config'>): Record<string, unknown> {
  const c = job.config as { chbench?: Record<string, unknown> } | null;
  return c && typeof c === 'object' && c.chbench && typeof c.chbench === 'object' ? c.chbench : {};
}

/** Analytic streams a run has: its result's, else as configured (1 when not stored: protocol's default). */
export function jobStreams(job: Pick<Job, 'config' | 'result'>): number {
  const r = chbenchAnalytic(job);
  if (r) return r.streams;
  const s = jobAnalytic(job)['analyticStreams'];
  return typeof s === 'number' ? s : 1;
}

/** Seconds with five decimals below 10 s, as TPROC-H shows query times. */
export const fmtSec = (s: number | undefined): string => (s === undefined || !Number.isFinite(s) ? '–' : s.toFixed(s < 10 ? 5 : s < 100 ? 3 : 1));
/** Queries per hour with one decimal and separators. */
export const fmtPerHour = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 }));
