import type { ChbenchJobConfig, TproccJobConfig } from '@sledge/protocol';
import type { JobEnv } from '../../engine/job-types.js';

/**
 * The TPROC-C job inside a CH-benCHmark job: the same target, seed and
 * TPROC-C options, as TPROC-C's own build takes them (CH-benCHmark's build
 * starts with TPROC-C's). The analytic options stay with CH-benCHmark.
 */
export function tproccPart(env: JobEnv<ChbenchJobConfig>): JobEnv<TproccJobConfig> {
  const { chbench: _analytic, ...rest } = env.cfg;
  return { ...env, cfg: { ...rest, workload: 'tprocc' } };
}
