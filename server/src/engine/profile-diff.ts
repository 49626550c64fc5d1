import type { JobStore, ProfilePoint } from '@sledge/jobstore';
import { jobCpuCount } from './job-cpus.js';
import { jobsDiff, type JobsDiff } from './jobs-diff.js';

/** The first run of a profile (by creation), whose system information weights the diff as HammerDB's does. */
export function firstPoint(points: readonly ProfilePoint[]): ProfilePoint | undefined {
  return [...points].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))[0];
}

/** jobs diff of two stored profiles (their completed runs with a result); weighted uses the base's first run's CPU count. */
export function diffProfiles(store: JobStore, base: ProfilePoint[], comp: ProfilePoint[], weighted: boolean, baseName: string): JobsDiff {
  let cpuCount: number | undefined;
  if (weighted) {
    const first = firstPoint(base);
    const job = first ? store.getJob(first.jobId) : undefined;
    cpuCount = job ? jobCpuCount(store, job) : undefined;
  }
  return jobsDiff(base, comp, { weighted, ...(cpuCount === undefined ? {} : { cpuCount }), baseName });
}
