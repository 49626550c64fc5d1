import type { ScriptJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { scriptFileStatements, withParamSession } from './sql.js';

/** Drop pgbench's four tables (the database, like pgbench's, stays). */
export const deleteJob: JobBody<ScriptJobConfig> = async (env) => {
  const { cfg, driver, ctx } = env;
  ctx.status('running');
  await withParamSession(driver, cfg, 'script-delete', async (s) => {
    for (const st of scriptFileStatements(cfg, 'drop.sql')) await s.run(st, []);
  });
  ctx.output(1, 'pgbench tables dropped');
  ctx.update({ summary: 'pgbench tables dropped' });
  return 'completed';
};
