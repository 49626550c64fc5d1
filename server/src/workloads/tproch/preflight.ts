import { tprochHooks, type Driver } from '@sledge/core';
import { SledgeError, type TprochJobConfig } from '@sledge/protocol';

/** TPROC-H checks before a database job is stored: the schema state a build, run or check needs. */
export async function preflight(cfg: TprochJobConfig, driver: Driver, { busy }: { busy: boolean }): Promise<void> {
  const field = `target.${driver.schemaField}`;
  const admin = await tprochHooks(driver).openAdmin(cfg.target, () => undefined);
  try {
    await admin.serverVersion();
    if (busy) return; // the schema will be what the queued jobs leave; the job body checks again.
    const state = await admin.schemaState();
    if (cfg.type === 'build' && state.exists) {
      throw new SledgeError(
        'SLEDGE_E_SCHEMA_EXISTS',
        `the target already holds a TPROC-H schema (SF ${state.scaleFactor}): delete it first (job type "delete") or choose another ${driver.schemaField}`,
        { field },
      );
    }
    if (cfg.type === 'build') await admin.assertBuildable?.();
    if ((cfg.type === 'run' || cfg.type === 'check') && !state.exists) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', 'there is no TPROC-H schema on the target: build one first (job type "build")', { field });
    }
  } finally {
    await admin.close();
  }
}
