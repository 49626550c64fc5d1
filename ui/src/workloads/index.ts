import { DEFAULT_WORKLOAD } from '@sledge/protocol';
import type { Job } from '@sledge/protocol';
import { TPROCC_UI } from './tprocc/index.js';
import type { WorkloadUi } from './types.js';

export type { ResultColumn, RunOptionsProps, RunPlan, WorkloadForm, WorkloadOp, WorkloadUi } from './types.js';

/**
 * The UI's workloads by id: pages pick a job's form, result banner and charts
 * here by its `workload` and otherwise name none. A new workload is a folder
 * beside ./tprocc and one line in BUILT_IN (a test may add one of its own
 * with `registerWorkloadUi`).
 */
const BUILT_IN = (): WorkloadUi[] => [TPROCC_UI];

const REGISTRY = new Map<string, WorkloadUi>();
let seeded = false;

/** The registry, built-ins first (filled on first use: modules the workloads import may import this one). */
function registry(): Map<string, WorkloadUi> {
  if (!seeded) {
    seeded = true;
    for (const w of BUILT_IN()) if (!REGISTRY.has(w.id)) REGISTRY.set(w.id, w);
  }
  return REGISTRY;
}

export function registerWorkloadUi(w: WorkloadUi): void {
  registry().set(w.id, w);
}

/** The workload the Schema and Run pages work on (protocol's default, the only one today), and what a job without a known workload is shown as. */
export { DEFAULT_WORKLOAD };

/** One workload's UI; the default one for an id nothing registered. */
export function workloadUi(id: string | undefined): WorkloadUi {
  return (id !== undefined ? registry().get(id) : undefined) ?? registry().get(DEFAULT_WORKLOAD)!;
}

/** The UI of a job's workload. */
export const workloadOf = (job: Pick<Job, 'workload'>): WorkloadUi => workloadUi(job.workload);

/** Every registered workload, in registration order. */
export const workloadUis = (): WorkloadUi[] => [...registry().values()];
