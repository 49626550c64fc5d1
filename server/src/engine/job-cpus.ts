import type { JobStore } from '@sledge/jobstore';
import type { Job } from '@sledge/protocol';

/** The agent on the job's database host (the local agent for a local target), the only agent, or (loose) the first: [label, info]. */
export function jobAgent(store: JobStore, job: Job, loose: boolean): [string, Record<string, unknown>] | undefined {
  const entries = Object.entries(store.getSystem(job.id));
  const host = (job.config as { target?: { host?: string } } | undefined)?.target?.host;
  const local = !host || host === '127.0.0.1' || host === 'localhost' || host === '::1';
  const hit = entries.find(([label, info]) => (local ? label.endsWith('(local)') : label === host || info['hostname'] === host));
  return hit ?? (entries.length === 1 || loose ? entries[0] : undefined);
}

const pickAgent = (store: JobStore, job: Job, loose: boolean) => jobAgent(store, job, loose)?.[1];

/** Logical CPUs of a job's database host (HammerDB's JOBSYSTEM.cpucount), when an agent reported it. */
export function jobCpuCount(store: JobStore, job: Job): number | undefined {
  const n = pickAgent(store, job, false)?.['cpuCount'];
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The system information of a job as one JOBSYSTEM row: its database host's agent, else the first agent. */
export function jobSystemInfo(store: JobStore, job: Job): Record<string, unknown> | undefined {
  return pickAgent(store, job, true);
}
