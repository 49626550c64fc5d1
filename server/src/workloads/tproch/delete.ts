import type { JobBody } from '../../engine/job-types.js';
import { engineName, tprochConfig, withAdmin } from './common.js';

/** Drop the TPROC-H schema (database and user where the engine has them). */
export const deleteJob: JobBody = (env) =>
  withAdmin(env, async (admin, mon): Promise<'completed'> => {
    const cfg = tprochConfig(env);
    env.ctx.status('running');
    const state = await admin.schemaState();
    mon(state.exists ? `Deleting ${engineName(cfg)} TPROC-H schema (SF ${state.scaleFactor})` : 'No TPROC-H schema found; nothing to delete');
    await admin.dropSchema();
    mon(`${engineName(cfg)} TPROC-H Schema deleted`);
    env.ctx.update({ summary: state.exists ? `deleted SF ${state.scaleFactor}` : 'nothing to delete' });
    return 'completed';
  });
