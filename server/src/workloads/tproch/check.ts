import { evaluateTprochCheck, tprochBaseRows, tprochExpectedRows, tprochLineitemCount } from '@sledge/core';
import { SledgeError, type TprochJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { engineName, withAdmin } from './common.js';

/**
 * check_tpch (hammerdb.md §10.2): the eight tables, their row counts, and
 * count(supplier)/10000 = SF. The SF checked is the one the request gave,
 * else the schema's own.
 */
export const checkJob: JobBody<TprochJobConfig> = (env) =>
  withAdmin(env, async (admin, mon): Promise<'completed'> => {
    const { ctx, explicit } = env;
    const cfg = env.cfg;
    ctx.status('running');
    mon(`Checking ${engineName(cfg)} TPROC-H schema`);
    const state = await admin.schemaState();
    const sf = explicit.has('scaleFactor') ? cfg.tproch.scaleFactor : state.scaleFactor;
    const rowCounts = state.exists ? await admin.rowCounts() : {};
    const expected = tprochExpectedRows(tprochBaseRows(sf > 0 ? sf : cfg.tproch.scaleFactor), tprochLineitemCount(sf > 0 ? sf : cfg.tproch.scaleFactor));
    const items = evaluateTprochCheck({ rowCounts }, sf, expected);
    items.forEach((it, i) => mon(`Check ${i + 1}: ${it.name}: ${it.ok ? 'OK' : 'FAILED'} (${it.detail})`));
    ctx.check(items);
    const failed = items.filter((i) => !i.ok);
    if (failed.length) throw new SledgeError('SLEDGE_E_SCHEMA_INVALID', `check_tpch failed: ${failed.map((f) => `${f.name} (${f.detail})`).join('; ')}`);
    mon(`${engineName(cfg)} TPROC-H Schema has been checked successfully.`);
    ctx.update({ summary: `schema OK, SF ${sf}` });
    return 'completed';
  });
