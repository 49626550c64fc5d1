import type { TproccJobConfig } from '@sledge/protocol';
import type { WorkloadRunner } from '../registry.js';
import { buildJob } from './build.js';
import { checkJob } from './check.js';
import { datagenJob } from './datagen.js';
import { deleteJob } from './delete.js';
import { preflight, preflightDatagen } from './preflight.js';
import { TPROCC_RUN, runJob } from './run.js';
import { tproccReport } from './report.js';
import { schemaState } from './schema-state.js';

/** TPROC-C's job bodies and checks. */
export const tproccRunner: WorkloadRunner<TproccJobConfig> = {
  id: 'tprocc',
  bodies: {
    build: { db: true, run: buildJob, sampled: true },
    check: { db: true, run: checkJob },
    delete: { db: true, run: deleteJob },
    run: { db: true, run: runJob, sampled: true },
    datagen: { db: false, run: datagenJob },
  },
  vuSpec: TPROCC_RUN,
  preflight,
  preflightFiles: preflightDatagen,
  report: tproccReport,
  schemaState,
};
