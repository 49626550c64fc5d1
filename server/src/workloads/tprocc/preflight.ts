import { tproccHooks, tproccTarget, type Driver } from '@sledge/core';
import { SledgeError, type TproccJobConfig } from '@sledge/protocol';
import { checkDatagenDir } from './datagen-dir.js';

/** TPROC-C checks before a database job is stored: the schema state a build, run or check needs, and option limits. */
export async function preflight(cfg: TproccJobConfig, driver: Driver, { busy }: { busy: boolean }): Promise<void> {
  const hooks = tproccHooks(driver);
  // An engine that builds TPROC-C schemas but runs no transactions (DuckDB): the run is refused before it is stored.
  if (cfg.type === 'run' && hooks.noTransactions) throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `a TPROC-C run on ${driver.engine}: ${hooks.noTransactions}`, { field: 'target.engine' });
  const admin = await hooks.openAdmin(tproccTarget(cfg.target, cfg.tprocc.schema), () => undefined);
  try {
    await admin.serverVersion();
    if (busy) return; // schema state will be what the queued jobs leave; the job body checks again.
    const state = await admin.schemaState();
    if (cfg.type === 'build' && state.exists) {
      throw new SledgeError(
        'SLEDGE_E_SCHEMA_EXISTS',
        `the target already holds a TPROC-C schema (${state.warehouses} warehouses): delete it first (job type "delete") or choose another ${driver.schemaField}`,
        { field: `target.${driver.schemaField}` },
      );
    }
    // Whatever else the driver's createSchema would refuse (a partial schema, an existing database), before the job is stored.
    if (cfg.type === 'build') await admin.assertBuildable?.();
    if ((cfg.type === 'run' || cfg.type === 'check') && (!state.exists || state.warehouses < 1)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'there is no TPROC-C schema on the target: build one first (job type "build")', {
        field: `target.${driver.schemaField}`,
      });
    }
    if (cfg.type === 'run' && cfg.tprocc.driver === 'test' && cfg.tprocc.totalIterations > 1_000_000) {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'the test driver prints every transaction: set tprocc.totalIterations to at most 1000000 (or use the timed driver)', {
        field: 'tprocc.totalIterations',
      });
    }
  } finally {
    await admin.close();
  }
}

/**
 * Datagen preflight: the directory only (no database is contacted). A
 * resume adopts the seed and timestamp of the directory's manifest unless
 * the request names them; the resolved values are stored with the job.
 */
export function preflightDatagen(cfg: TproccJobConfig, { seedExplicit }: { seedExplicit: boolean }): void {
  const dg = cfg.datagen!;
  const plan = checkDatagenDir({
    dir: dg.dir,
    seed: cfg.seed,
    seedExplicit,
    warehouses: cfg.tprocc.warehouses,
    workers: dg.workers,
    ...(dg.timestamp ? { timestamp: dg.timestamp } : {}),
  });
  cfg.seed = plan.settings.seed;
  dg.timestamp = plan.settings.timestamp;
}
