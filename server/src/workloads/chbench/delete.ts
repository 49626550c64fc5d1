import { tproccHooks } from '@sledge/core';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import type { ChbenchJobConfig } from '@sledge/protocol';
import { chbenchFiles, chbenchTarget, openChbenchSession } from './sql.js';
import { dropExtraTables } from './tables.js';

/** Delete a CH-benCHmark schema: its three tables (where the database is still there), then TPROC-C's schema (database and user where the engine has them). */
export const deleteJob: JobBody<ChbenchJobConfig> = async ({ ctx, cfg, driver }) => {
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tproccHooks(driver).openAdmin(chbenchTarget(cfg), mon);
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    ctx.status('running');
    const state = await admin.schemaState();
    if (state.exists) {
      const s = await openChbenchSession(driver, cfg, 'chbench-delete', { log: mon });
      try {
        await dropExtraTables(s, chbenchFiles(cfg));
      } finally {
        await s.close();
      }
    }
    mon(state.exists ? `Deleting ${ENGINE_DISPLAY[cfg.target.engine]} CH-benCHmark schema (${state.warehouses} warehouses)` : 'No CH-benCHmark schema found; nothing to delete');
    await admin.dropSchema();
    mon(`${ENGINE_DISPLAY[cfg.target.engine]} CH-benCHmark Schema deleted`);
    ctx.update({ summary: state.exists ? `deleted ${state.warehouses} warehouses and CH-benCHmark's 3 tables` : 'nothing to delete' });
    return 'completed';
  } finally {
    await admin.close();
  }
};
