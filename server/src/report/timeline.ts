import type { ReportData } from './data.js';
import type { Band } from './chart-common.js';
import type { Palette } from './palette.js';

/** The job's time origin: when it started (else its first sample). */
export function jobStart(d: Pick<ReportData, 'job' | 'engine' | 'client' | 'phases'>): number {
  const started = d.job.startedAt ? Date.parse(d.job.startedAt) : NaN;
  if (Number.isFinite(started)) return started;
  return Math.min(d.phases[0]?.ts ?? Infinity, d.engine[0]?.ts ?? Infinity, d.client[0]?.ts ?? Infinity, Date.parse(d.job.createdAt));
}

/** Seconds since the job's start. */
export const since = (t0: number) => (ts: number) => Math.round((ts - t0) / 100) / 10;

/** The job's end on its time axis (seconds), when it has one. */
export function jobEnd(d: Pick<ReportData, 'job'>, t0: number): number | undefined {
  const end = d.job.endedAt ? Date.parse(d.job.endedAt) : NaN;
  return Number.isFinite(end) ? since(t0)(end) : undefined;
}

/** Rampup and the measured window from the job's phase markers. */
export function phaseBands(d: Pick<ReportData, 'job' | 'phases'>, t0: number, p: Palette): Band[] {
  const at = (label: string) => d.phases.find((x) => x.label === label)?.ts;
  const s = since(t0);
  const rampup = at('rampup');
  const measuring = at('measuring');
  const stopping = at('stopping');
  const end = jobEnd(d, t0);
  const bands: Band[] = [];
  // A rampup of 0 passes through the status in milliseconds: no band for it.
  if (rampup !== undefined && measuring !== undefined && measuring - rampup >= 500) bands.push({ from: s(rampup), to: s(measuring), label: 'rampup', color: p.rampup });
  const windowEnd = stopping !== undefined ? s(stopping) : end;
  if (measuring !== undefined && windowEnd !== undefined && windowEnd > s(measuring)) bands.push({ from: s(measuring), to: windowEnd, label: 'measured window', color: p.window });
  return bands;
}
