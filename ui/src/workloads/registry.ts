import { DEFAULT_WORKLOAD } from '@sledge/protocol';
import type { Job } from '@sledge/protocol';
import type { WorkloadUi } from './types.js';

export type { ResultColumn, RunOptionsProps, RunPlan, WorkloadForm, WorkloadOp, WorkloadUi } from './types.js';

/**
 * The UI's workloads by id: pages pick a job's form, result banner and charts
 * here by its `workload` and otherwise name none. This module imports no
 * workload (the workloads' own modules import what imports it); the shipped
 * ones are registered by ./index.ts, which the app's entry loads first.
 */
const REGISTRY = new Map<string, WorkloadUi>();

/** Add a workload's UI (./index.ts for the shipped ones; a test may add its own). */
export function registerWorkloadUi(w: WorkloadUi): void {
  REGISTRY.set(w.id, w);
}

/** The workload the Schema and Run pages work on (protocol's default, the only one today), and what a job without a known workload is shown as. */
export { DEFAULT_WORKLOAD };

/** One workload's UI; the default one for an id nothing registered. */
export function workloadUi(id: string | undefined): WorkloadUi {
  const w = (id !== undefined ? REGISTRY.get(id) : undefined) ?? REGISTRY.get(DEFAULT_WORKLOAD);
  if (!w) throw new Error('no workload UI registered: import ui/src/workloads/index.ts first');
  return w;
}

/** The UI of a job's workload. */
export const workloadOf = (job: Pick<Job, 'workload'>): WorkloadUi => workloadUi(job.workload);

/** Every registered workload, in registration order. */
export const workloadUis = (): WorkloadUi[] => [...REGISTRY.values()];
