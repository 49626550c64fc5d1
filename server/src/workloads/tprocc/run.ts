import { tproccWorkload } from '@sledge/core';
import type { TproccOptions, TproccJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { runVuJob, type VuJobSpec } from '../../runner/vu-run.js';
import { chooseVuLoop } from './vu-loop-choice.js';
import { tproccValidity } from './validity.js';

/** TPROC-C for the generic runner: the workload (VU workers import it from @sledge/core), its options, the drivers' native VU loops. */
export const TPROCC_RUN: VuJobSpec<TproccOptions, TproccJobConfig> = {
  workload: tproccWorkload,
  module: { specifier: '@sledge/core', export: 'tproccWorkload' },
  options: (cfg) => cfg.tprocc,
  native: {
    choose: (pref, driver, target, o, addonPath) => chooseVuLoop(pref, driver, target, o, addonPath),
    host: { specifier: new URL('./native-vus.js', import.meta.url).href, export: 'startNativeVus' },
  },
  validity: tproccValidity,
};

/** A TPROC-C run (timed or test driver). */
export const runJob: JobBody<TproccJobConfig> = (env) => runVuJob(env, TPROCC_RUN);
