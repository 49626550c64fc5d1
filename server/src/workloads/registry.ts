import type { Driver } from '@sledge/core';
import { SledgeError, type JobConfig, type JobType } from '@sledge/protocol';
import type { FileJobBody, JobBody } from '../engine/job-types.js';
import type { VuJobSpec } from '../runner/vu-run.js';

/** A job body: most work on a database through its driver (`sampled`: ASH and CPU samplers run beside it); some (datagen) only write files. */
export type Body = { db: true; run: JobBody; sampled?: boolean } | { db: false; run: FileJobBody };

/** What the server knows of one workload: its job bodies by job type, and its checks before a job is stored. */
export interface WorkloadRunner {
  /** The job body's `workload` value, e.g. 'tprocc'. */
  id: string;
  bodies: Partial<Record<JobType, Body>>;
  /** Its VU runner (run jobs): what a replica runs when a run is placed on replicas. */
  vuSpec?: VuJobSpec;
  /**
   * Checks of a database job before it is stored (the schema a build or run
   * needs, option limits), on a driver that loads. `busy`: a queued or
   * running job uses the same database, so its schema state is what that job
   * will leave (check only what does not depend on it).
   */
  preflight?(cfg: JobConfig, driver: Driver, o: { busy: boolean }): Promise<void>;
  /** Checks of a file-only job before it is stored; may settle values the request left out (stored with the job). */
  preflightFiles?(cfg: JobConfig, o: { seedExplicit: boolean }): void;
}

const RUNNERS = new Map<string, WorkloadRunner>();

/** Add a workload to the server (shipped ones in workloads/index.ts; a test may add its own). Replaces one of the same id. */
export function registerWorkloadRunner(r: WorkloadRunner): void {
  RUNNERS.set(r.id, r);
}

export function workloadRunner(id: string): WorkloadRunner {
  const r = RUNNERS.get(id);
  if (!r) throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${id} is not known to this server`, { field: 'workload' });
  return r;
}

/** The body of a job: by its workload and job type. */
export function jobBody(workload: string, type: JobType): Body {
  const b = workloadRunner(workload).bodies[type];
  if (!b) throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${workload} has no ${type} job`, { field: 'type' });
  return b;
}
