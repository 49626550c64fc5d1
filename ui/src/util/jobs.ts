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
