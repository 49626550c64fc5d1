import { scriptWorkload, type ScriptRunOptions, type VuWorkload } from '@sledge/core';
import type { ScriptJobConfig, ScriptResult } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { runVuJob, type VuJobSpec } from '../../runner/vu-run.js';
import { chooseScriptLoop, scriptThreads } from './loop-choice.js';

/**
 * A script run: the generic VU runner with core's script workload, made for
 * the job's scripts (VuWorkload.forOptions: one operation per script). The
 * scripts were parsed and settled (built-in texts, scale) by the preflight,
 * before the job was stored. Scripts that can be evaluated ahead run in the
 * driver's native loop where it loads (loop-choice.ts, native-vus.ts).
 */
export const SCRIPT_RUN: VuJobSpec<ScriptRunOptions, ScriptJobConfig> = {
  workload: scriptWorkload as VuWorkload<ScriptRunOptions, unknown, ScriptResult>,
  module: { specifier: '@sledge/core', export: 'scriptWorkload' },
  options: (cfg) => cfg.script,
  native: {
    choose: (pref, driver, target, o, addonPath) => chooseScriptLoop(pref, driver, target, o, addonPath),
    threads: (o, hosted, cores) => scriptThreads(o.threads, hosted, cores),
    host: { specifier: new URL('./native-vus.js', import.meta.url).href, export: 'startScriptNativeVus' },
  },
};

export const runJob: JobBody<ScriptJobConfig> = (env) => runVuJob(env, SCRIPT_RUN);
