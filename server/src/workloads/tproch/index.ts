import type { TprochJobConfig } from '@sledge/protocol';
import type { WorkloadRunner } from '../registry.js';
import { buildJob } from './build.js';
import { checkJob } from './check.js';
import { datagenJob, preflightDatagen } from './datagen.js';
import { deleteJob } from './delete.js';
import { preflight } from './preflight.js';
import { runJob } from './run.js';
import { schemaState } from './schema-state.js';
import { tprochReport } from './report.js';

/** TPROC-H's job bodies and checks. */
export const tprochRunner: WorkloadRunner<TprochJobConfig> = {
  id: 'tproch',
  bodies: {
    build: { db: true, run: buildJob, sampled: true },
    check: { db: true, run: checkJob },
    delete: { db: true, run: deleteJob },
    run: { db: true, run: runJob, sampled: true },
    datagen: { db: false, run: datagenJob },
  },
  preflight,
  schemaState,
  preflightFiles: preflightDatagen,
  report: tprochReport,
};
