import type { Driver } from '@sledge/core';
import { SledgeError, workloadDef, type JobConfig } from '@sledge/protocol';
import { workloadRunner } from '../workloads/index.js';

/**
 * Runs of an engine whose sessions stay on the server's main thread
 * (DriverFeatures.mainThreadSessions: DuckDB, one instance of a file per
 * thread of one process). Its VUs run there, as one group of async loops
 * (VuPool's mainThread), so a run cannot ask for worker threads or replicas.
 */

/** A run on replicas of such an engine: refused, saying why. */
export function mainThreadPlacement(engine: string): SledgeError {
  return new SledgeError(
    'SLEDGE_E_VALIDATION',
    `placement.on is "replicas" but ${engine} runs inside this server's process, where its database file is open in one place only: its virtual users run on this server's main thread; set placement.on to "local"`,
    { field: 'placement' },
  );
}

/** Before a run is stored: no replicas, no worker threads asked for (0, automatic, or 1). */
export function checkMainThreadRun(cfg: JobConfig, driver: Driver): void {
  if (cfg.type !== 'run') return;
  if (cfg.placement?.on === 'replicas') throw mainThreadPlacement(driver.engine);
  const spec = workloadRunner(cfg.workload).vuSpec;
  const key = workloadDef(cfg.workload)?.optionsKey;
  if (!spec || !key) return;
  const workers = spec.workload.vuPlan(spec.options(cfg as never)).workers;
  if (workers > 1) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `${key}.workers is ${workers} but ${driver.engine}'s sessions stay on the server's main thread (one instance of the database file per process): its virtual users run there, not on worker threads; set ${key}.workers to 0`,
      { field: `${key}.workers` },
    );
  }
}
