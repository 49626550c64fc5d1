import { tproccHooks, type Driver } from '@sledge/core';
import { CHBENCH_TABLES } from '@sledge/core/chbench';
import { SledgeError, type ChbenchJobConfig } from '@sledge/protocol';
import { chbenchFiles, chbenchTarget, openChbenchSession } from './sql.js';
import { extraTableCounts } from './tables.js';

/** CH-benCHmark's checks before a job is stored: the driver can run it, and the schema a build, run or check needs. */
export async function preflight(cfg: ChbenchJobConfig, driver: Driver, { busy }: { busy: boolean }): Promise<void> {
  if (!driver.openQuerySession) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver has no query sessions, which CH-benCHmark needs: choose another engine`, { field: 'target.engine' });
  }
  if (cfg.type === 'run' && cfg.tprocc.driver !== 'timed') {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'a CH-benCHmark run has one timed window shared by VUs and analytic streams: set tprocc.driver to "timed"', { field: 'tprocc.driver' });
  }
  const field = `target.${driver.schemaField}`;
  const hooks = tproccHooks(driver);
  if (cfg.type === 'run' && cfg.tprocc.vus > 0 && hooks.noTransactions) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `CH-benCHmark on ${driver.engine} runs its analytic streams alone: set tprocc.vus to 0. ${hooks.noTransactions}`, { field: 'tprocc.vus' });
  }
  const admin = await hooks.openAdmin(chbenchTarget(cfg), () => undefined);
  try {
    await admin.serverVersion();
    if (busy) return; // the queued jobs decide the schema state; the job body checks again.
    const state = await admin.schemaState();
    if (cfg.type === 'build') {
      if (state.exists) throw new SledgeError('SLEDGE_E_SCHEMA_EXISTS', `the target already holds a TPROC-C schema (${state.warehouses} warehouses): delete it first (job type "delete") or choose another ${driver.schemaField}`, { field });
      await admin.assertBuildable?.();
      return;
    }
    if (cfg.type !== 'run' && cfg.type !== 'check') return;
    if (!state.exists || state.warehouses < 1) throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'there is no CH-benCHmark schema on the target: build one first (job type "build")', { field });
    if (cfg.type === 'run') {
      const s = await openChbenchSession(driver, cfg, 'chbench-preflight', { log: () => undefined });
      try {
        const counts = await extraTableCounts(s, chbenchFiles(cfg));
        const missing = CHBENCH_TABLES.filter((t) => !counts[t]);
        if (missing.length) {
          throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `the target holds TPROC-C's tables but not CH-benCHmark's ${missing.join(', ')}: build a CH-benCHmark schema (workload "chbench", job type "build") in another ${driver.schemaField}`, { field });
        }
      } finally {
        await s.close();
      }
    }
  } finally {
    await admin.close();
  }
}
