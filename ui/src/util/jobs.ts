import type { Job } from '@sledge/protocol';
import { localDay } from './format.js';

export interface DayGroup {
  day: string;
  jobs: Job[];
}

/** Group jobs (already newest first) by their local creation day, keeping order. */
export function groupByDay(jobs: readonly Job[]): DayGroup[] {
  const out: DayGroup[] = [];
  for (const j of jobs) {
    const day = localDay(j.createdAt);
    const last = out[out.length - 1];
    if (last && last.day === day) last.jobs.push(j);
    else out.push({ day, jobs: [j] });
  }
  return out;
}

/** Insert or replace a job in a newest-first list. */
export function upsertJob(jobs: readonly Job[], job: Job): Job[] {
  const i = jobs.findIndex((j) => j.id === job.id);
  if (i >= 0) {
    const copy = jobs.slice();
    copy[i] = job;
    return copy;
  }
  const at = jobs.findIndex((j) => j.createdAt < job.createdAt);
  const copy = jobs.slice();
  copy.splice(at < 0 ? copy.length : at, 0, job);
  return copy;
}

export interface JobFilter {
  engine?: string;
  type?: string;
  status?: string;
  q?: string;
}

/** Whether a pushed job belongs in a list filtered this way (text matches id, label and summary). */
export function matchesFilter(job: Job, f: JobFilter): boolean {
  if (f.engine && job.engine !== f.engine) return false;
  if (f.type && job.type !== f.type) return false;
  if (f.status && job.status !== f.status) return false;
  if (f.q) {
    const q = f.q.toLowerCase();
    const hay = `${job.id} ${job.label ?? ''} ${job.summary ?? ''}`.toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

/** Elapsed ms of a job (to now while it runs). */
export function jobElapsedMs(job: Job, now: number): number | undefined {
  if (!job.startedAt) return undefined;
  const end = job.endedAt ? Date.parse(job.endedAt) : now;
  return end - Date.parse(job.startedAt);
}

/** The job's configured TPROC-C options as stored (unknown in the protocol type). */
export function jobTprocc(job: Job): Record<string, unknown> {
  const c = job.config as { tprocc?: Record<string, unknown> } | null;
  return c && typeof c === 'object' && c.tprocc && typeof c.tprocc === 'object' ? c.tprocc : {};
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const minutes = (m: unknown) => (typeof m === 'number' ? `${+m.toFixed(2)} min` : '?');

/**
 * The job's configuration in a few words, for one-line summaries and
 * confirmations: driver, VUs, warehouses (a run's come from the schema it ran
 * on: `warehouses` when known), rampup and duration; builds name their
 * warehouses and build VUs.
 */
export function configSummary(job: Job, warehouses?: number): string[] {
  const t = jobTprocc(job);
  const n = (k: string) => (typeof t[k] === 'number' ? (t[k] as number) : undefined);
  const parts: string[] = [];
  if (job.type === 'run') {
    const vus = n('vus');
    if (vus !== undefined) parts.push(plural(vus, 'VU'));
    const w = warehouses ?? job.result?.warehouses;
    if (w !== undefined) parts.push(plural(w, 'warehouse'));
    if (t['driver'] === 'test') parts.push(`test driver, ${plural(n('totalIterations') ?? 0, 'transaction')} per VU`);
    else parts.push(`rampup ${minutes(t['rampup'])}`, `${minutes(t['duration'])} measured`);
    if (t['allWarehouse'] === true) parts.push('all warehouses');
    if (t['keyAndThink'] === true) parts.push('keying and thinking time');
  } else if (job.type === 'build' || job.type === 'datagen') {
    const w = n('warehouses');
    if (w !== undefined) parts.push(plural(w, 'warehouse'));
    const b = n('buildVus');
    if (job.type === 'build' && b !== undefined) parts.push(plural(b, 'build VU'));
  }
  return parts;
}

/** The warehouses a job concerns: a run's from its result (the schema it ran on), a build's as configured; undefined when not known. */
export function jobWarehouses(job: Job): number | undefined {
  if (job.type === 'run') return job.result?.warehouses;
  if (job.type === 'build' || job.type === 'datagen') {
    const w = jobTprocc(job)['warehouses'];
    return typeof w === 'number' ? w : undefined;
  }
  return undefined;
}

/** The VUs a job ran: a run's virtual users, a build's build VUs. */
export function jobVus(job: Job): number | undefined {
  const t = jobTprocc(job);
  const v = job.type === 'run' ? t['vus'] : job.type === 'build' ? t['buildVus'] : undefined;
  return typeof v === 'number' ? v : undefined;
}
