import type { ScriptJobConfig } from '@sledge/protocol';
import type { WorkloadRunner } from '../registry.js';
import { buildJob } from './build.js';
import { checkJob } from './check.js';
import { deleteJob } from './delete.js';
import { preflight } from './preflight.js';
import { scriptReport } from './report.js';
import { SCRIPT_RUN, runJob } from './run.js';

/** The script workload's job bodies and checks (docs/script-workload.md): pgbench's init as a build, its invariant as a check, runs of pgbench scripts. */
export const scriptRunner: WorkloadRunner<ScriptJobConfig> = {
  id: 'script',
  bodies: {
    build: { db: true, run: buildJob, sampled: true },
    check: { db: true, run: checkJob },
    delete: { db: true, run: deleteJob },
    run: { db: true, run: runJob, sampled: true },
  },
  vuSpec: SCRIPT_RUN,
  preflight,
  report: scriptReport,
};
