import type { Job } from '@sledge/protocol';
import type { TimeRange } from './types.js';
import { workloadOf } from '../../workloads/registry.js';

interface Sampled {
  engine: readonly { ts: number }[];
  client: readonly { ts: number }[];
  latency: readonly { ts: number }[];
}

/**
 * The time window a job's charts share. It starts when the job started (or
 * its first sample) and ends when it ended; while a timed run is live it
 * extends to the planned end (rampup + duration) so the charts fill from the
 * left instead of rescaling every second.
 */
export function jobTimeRange(job: Job, s: Sampled, now: number): TimeRange | undefined {
  const firsts = [s.engine[0]?.ts, s.client[0]?.ts, s.latency[0]?.ts].filter((x): x is number => x !== undefined);
  const lasts = [s.engine.at(-1)?.ts, s.client.at(-1)?.ts, s.latency.at(-1)?.ts].filter((x): x is number => x !== undefined);
  const started = job.startedAt ? Date.parse(job.startedAt) : undefined;
  const min = started ?? (firsts.length ? Math.min(...firsts) : undefined);
  if (min === undefined) return undefined;
  let max: number;
  if (job.endedAt) {
    max = Math.max(Date.parse(job.endedAt), ...lasts);
  } else {
    // Only a timed run has a planned end (its workload reads it from the run's options).
    const windowMs = workloadOf(job).runPlan(job).windowMs;
    const planned = windowMs !== undefined ? min + windowMs + 2_000 : undefined;
    max = Math.max(planned ?? 0, now, ...lasts);
  }
  if (max <= min) max = min + 1000;
  return { min, max };
}

/**
 * The time window of a job's metrics charts (load, CPU lines, per-core heat):
 * the job's window, widened to take in every metric sample given.
 */
export function metricsTimeRange(job: Job, stamps: readonly number[], now: number): TimeRange | undefined {
  const sorted = stamps.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const ends = sorted.length ? [{ ts: sorted[0]! }, { ts: sorted[sorted.length - 1]! }] : [];
  const r = jobTimeRange(job, { engine: ends, client: [], latency: [] }, now);
  if (!r || !sorted.length) return r;
  return { min: Math.min(r.min, sorted[0]!), max: Math.max(r.max, sorted[sorted.length - 1]!) };
}
