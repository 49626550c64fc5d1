import type { TprochJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { engineName, withAdmin } from './common.js';

/** Drop the TPROC-H schema (database and user where the engine has them). */
export const deleteJob: JobBody<TprochJobConfig> = (env) =>
  withAdmin(env, async (admin, mon): Promise<'completed'> => {
    const cfg = env.cfg;
    env.ctx.status('running');
    const state = await admin.schemaState();
    mon(state.exists ? `Deleting ${engineName(cfg)} TPROC-H schema (SF ${state.scaleFactor})` : 'No TPROC-H schema found; nothing to delete');
    await admin.dropSchema();
    mon(`${engineName(cfg)} TPROC-H Schema deleted`);
    env.ctx.update({ summary: state.exists ? `deleted SF ${state.scaleFactor}` : 'nothing to delete' });
    return 'completed';
  });
