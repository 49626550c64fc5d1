import { tproccWorkload, type VuWorkload } from '@sledge/core';
import type { ChbenchJobConfig, ChbenchResult, TproccJobConfig, TproccOptions } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { runVuJob, type ValidityInput, type VuJobSpec } from '../../runner/vu-run.js';
import { TPROCC_RUN } from '../tprocc/run.js';
import { tproccValidity } from '../tprocc/validity.js';
import { analyticCompanion } from './analytic.js';
import { runAnalyticOnly } from './analytic-only.js';

/**
 * CH-benCHmark's run: TPROC-C's virtual users (same workload, options and
 * native loops) with the analytic streams as their companion, for one timed
 * window. TPROC-C's monitor computes the transactional fields; the
 * companion adds `analytic`, which makes the result a ChbenchResult.
 */
export const CHBENCH_RUN: VuJobSpec<TproccOptions, ChbenchJobConfig> = {
  workload: tproccWorkload as VuWorkload<TproccOptions, unknown, ChbenchResult>,
  module: TPROCC_RUN.module,
  options: (cfg) => cfg.tprocc,
  ...(TPROCC_RUN.native ? { native: TPROCC_RUN.native } : {}),
  companion: analyticCompanion,
  // TPROC-C's checks of the transactional side (its options and result fields are TPROC-C's).
  validity: (input) => tproccValidity(input as unknown as ValidityInput<TproccJobConfig>),
};

/** A run with TPROC-C's VUs and the streams beside them; with tprocc.vus 0, the streams alone (analytic-only.ts). */
export const runJob: JobBody<ChbenchJobConfig> = (env) => (env.cfg.tprocc.vus === 0 ? runAnalyticOnly(env) : runVuJob(env, CHBENCH_RUN));
