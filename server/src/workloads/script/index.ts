import type { ScriptJobConfig } from '@sledge/protocol';
import type { WorkloadRunner } from '../registry.js';
import { preflight } from './preflight.js';
import { SCRIPT_RUN, runJob } from './run.js';

/** The script workload's job bodies and checks (docs/script-workload.md): runs of a user's pgbench scripts. */
export const scriptRunner: WorkloadRunner<ScriptJobConfig> = {
  id: 'script',
  bodies: {
    run: { db: true, run: runJob, sampled: true },
  },
  vuSpec: SCRIPT_RUN,
  preflight,
};
