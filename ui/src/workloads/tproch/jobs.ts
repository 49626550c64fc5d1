import type { Job } from '@sledge/protocol';
import type { RunPlan } from '../types.js';
import { engineDoes } from '../../state/capabilities.js';
import { jobStreams, jobTproch, tprochResult } from './result.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const num = (t: Record<string, unknown>, k: string): number | undefined => (typeof t[k] === 'number' ? (t[k] as number) : undefined);

/** The job's configuration in a few words: a run's test, SF, streams, DOP, refresh; a build's SF and build VUs. */
export function configSummary(job: Job): string[] {
  const t = jobTproch(job);
  const parts: string[] = [];
  const sf = tprochResult(job)?.scaleFactor ?? num(t, 'scaleFactor');
  if (job.type === 'run') {
    parts.push(t['mode'] === 'throughput' ? 'throughput test' : t['mode'] === 'performance' ? 'performance test (power + throughput)' : 'power test');
    if (sf !== undefined) parts.push(`SF ${sf}`);
    if (t['mode'] === 'throughput' || t['mode'] === 'performance') parts.push(plural(jobStreams(job), 'query stream'));
    const sets = num(t, 'querySets');
    if (sets !== undefined && sets > 1) parts.push(plural(sets, 'query set'));
    const dop = num(t, 'dop');
    // Only where the engine has a degree of parallelism (capabilities); SQLite and MySQL ignore it.
    if (dop !== undefined && engineDoes(job.engine, 'tproch', 'dop')) parts.push(`DOP ${dop}`);
    if (t['refresh'] === true) parts.push('refresh on');
    const timeout = num(t, 'queryTimeoutSec');
    if (timeout) parts.push(`timeout ${timeout} s`);
  } else if (job.type === 'build' || job.type === 'datagen') {
    if (sf !== undefined) parts.push(`SF ${sf}`);
    const b = num(t, 'buildVus');
    if (job.type === 'build' && b !== undefined) parts.push(plural(b, 'build VU'));
  }
  return parts;
}

/** The scale factor a job concerns: a run's from its result (the schema it ran on), else as configured. */
export function jobScale(job: Job): number | undefined {
  if (job.type !== 'run' && job.type !== 'build' && job.type !== 'datagen') return undefined;
  return tprochResult(job)?.scaleFactor ?? num(jobTproch(job), 'scaleFactor');
}

/** A run's query streams; a build's build VUs. */
export function jobVus(job: Job): number | undefined {
  if (job.type === 'run') return jobStreams(job);
  if (job.type === 'build') return num(jobTproch(job), 'buildVus');
  return undefined;
}

/** Queries a run plans: 22 per query set per stream (a performance test adds its power stream). */
export function plannedQueries(job: Job): number {
  const t = jobTproch(job);
  const sets = num(t, 'querySets') ?? 1;
  return 22 * sets * (jobStreams(job) + (t['mode'] === 'performance' ? 1 : 0));
}

/** TPROC-H runs have no timed window: each stream runs its query sets to the end. */
export function runPlan(job: Job): RunPlan {
  const sets = num(jobTproch(job), 'querySets') ?? 1;
  return { timed: false, vus: jobStreams(job), rampupSec: 0, durationSec: 0, totalIterations: 22 * sets };
}

/** The compare table's plan cell: the test and its streams. */
export function planCell(job: Job): string {
  const t = jobTproch(job);
  if (t['mode'] === 'performance') return `performance, power + ${plural(jobStreams(job), 'stream')}`;
  return t['mode'] === 'throughput' ? `throughput, ${plural(jobStreams(job), 'stream')}` : 'power';
}
