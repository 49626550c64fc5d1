import { SledgeError, type ScriptJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import { pgbenchBalances, withParamSession } from './sql.js';

/**
 * pgbench's invariant on its tables: every tpcb-like transaction adds the
 * same delta to one account, teller and branch and records it in history,
 * so sum(abalance) = sum(bbalance) = sum(tbalance) = sum(delta). A
 * difference is SLEDGE_E_SCHEMA_INVALID naming the four sums.
 */
export const checkJob: JobBody<ScriptJobConfig> = async (env) => {
  const { cfg, driver, ctx } = env;
  const mon = (t: string) => ctx.output(1, t);
  ctx.status('running');
  const b = await withParamSession(driver, cfg, 'script-check', (s) => pgbenchBalances(s, cfg));
  const line = `sum(abalance) ${b.accounts}, sum(bbalance) ${b.branches}, sum(tbalance) ${b.tellers}, sum(delta) ${b.history}`;
  mon(line);
  if (b.accounts !== b.history || b.branches !== b.history || b.tellers !== b.history) {
    throw new SledgeError('SLEDGE_E_SCHEMA_INVALID', `pgbench's invariant does not hold: ${line}`, { field: 'target' });
  }
  mon("pgbench's invariant holds");
  ctx.update({ summary: `pgbench invariant holds (${line})` });
  return 'completed';
};
