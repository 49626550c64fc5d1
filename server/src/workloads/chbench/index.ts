import type { WorkloadRunner } from '../registry.js';
import type { ChbenchJobConfig } from '@sledge/protocol';
import { buildJob } from './build.js';
import { checkJob } from './check.js';
import { deleteJob } from './delete.js';
import { preflight } from './preflight.js';
import { CHBENCH_RUN, runJob } from './run.js';
import { chbenchReport } from './report.js';

/**
 * CH-benCHmark's job bodies and checks (docs/chbench.md). It builds on
 * TPROC-C one way: its build starts with TPROC-C's, its run is TPROC-C's VUs
 * with the analytic streams beside them.
 */
export const chbenchRunner: WorkloadRunner<ChbenchJobConfig> = {
  id: 'chbench',
  bodies: {
    build: { db: true, run: buildJob, sampled: true },
    check: { db: true, run: checkJob },
    delete: { db: true, run: deleteJob },
    run: { db: true, run: runJob, sampled: true },
  },
  vuSpec: CHBENCH_RUN,
  preflight,
  report: chbenchReport,
};
