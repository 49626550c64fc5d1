import { tproccHooks, tproccTarget } from '@sledge/core';
import { ENGINE_DISPLAY, type TproccJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';

/** deleteschema: drop the schema (database and user where the engine has them). */
export const deleteJob: JobBody<TproccJobConfig> = async ({ ctx, cfg, driver }) => {
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tproccHooks(driver).openAdmin(tproccTarget(cfg.target, cfg.tprocc.schema), mon);
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    ctx.status('running');
    const state = await admin.schemaState();
    mon(state.exists ? `Deleting ${ENGINE_DISPLAY[cfg.target.engine]} TPROC-C schema (${state.warehouses} warehouses)` : 'No TPROC-C schema found; nothing to delete');
    await admin.dropSchema();
    mon(`${ENGINE_DISPLAY[cfg.target.engine]} TPROC-C Schema deleted`);
    ctx.update({ summary: state.exists ? `deleted ${state.warehouses} warehouses` : 'nothing to delete' });
    return 'completed';
  } finally {
    await admin.close();
  }
};
