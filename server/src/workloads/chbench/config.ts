import { isChbenchConfig, SledgeError, type ChbenchJobConfig } from '@sledge/protocol';

/** The job's configuration as CH-benCHmark's (its bodies run only for workload 'chbench'). */
export function chbenchConfig(cfg: { workload: string }): ChbenchJobConfig {
  if (!isChbenchConfig(cfg)) throw new SledgeError('SLEDGE_E_VALIDATION', `a CH-benCHmark job body got a ${cfg.workload} job`, { field: 'workload' });
  return cfg;
}
