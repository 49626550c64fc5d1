import { tproccWorkload } from '@sledge/core';
import type { TproccOptions } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { runVuJob, type VuJobSpec } from '../../runner/vu-run.js';
import { TPROCC_RUN } from '../tprocc/run.js';
import { analyticCompanion } from './analytic.js';
import { chbenchConfig } from './config.js';

/** CH-benCHmark's run: TPROC-C's virtual users (same workload, options and native loops) with the analytic streams as their companion, for one timed window. */
export const CHBENCH_RUN: VuJobSpec<TproccOptions> = {
  ...TPROCC_RUN,
  workload: tproccWorkload,
  options: (cfg) => chbenchConfig(cfg).tprocc,
  companion: analyticCompanion,
};

export const runJob: JobBody = (env) => runVuJob(env, CHBENCH_RUN);
