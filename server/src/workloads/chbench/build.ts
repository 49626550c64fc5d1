import { tproccHooks, type QuerySession } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { JobBody, JobEnv } from '../../engine/job-types.js';
import { tproccPart } from './config.js';
import type { ChbenchJobConfig } from '@sledge/protocol';
import { buildJob as buildTprocc } from '../tprocc/build.js';
import { chbenchFiles, chbenchTarget, openChbenchSession } from './sql.js';
import { loadExtraTables } from './tables.js';

/**
 * CH-benCHmark's build: TPROC-C's nine tables exactly as a TPROC-C build
 * makes them (same generator, workers and progress), then REGION, NATION and
 * SUPPLIER from core's CH-benCHmark generator through the engine's
 * chbench/tables.sql and indexes.sql. A failure in the second part drops
 * the whole schema, so the target is as it was before the build.
 */
export const buildJob: JobBody<ChbenchJobConfig> = async (env) => {
  const cfg = env.cfg;
  const { ctx, driver, stop } = env;
  const mon = (text: string) => ctx.output(1, text);
  const t0 = performance.now();
  const r = await buildTprocc(tproccPart(env));
  if (r === 'stopped' || stop.requested) return 'stopped';
  mon('Creating and loading the CH-benCHmark tables REGION, NATION and SUPPLIER');
  let s: QuerySession | null = null;
  try {
    s = await openChbenchSession(driver, cfg, 'chbench-build', { log: mon });
    const rows = await loadExtraTables(s, chbenchFiles(cfg), cfg.seed, mon);
    const secs = (performance.now() - t0) / 1000;
    mon(`CH-benCHmark tables loaded: ${rows.region} regions, ${rows.nation} nations, ${rows.supplier} suppliers`);
    ctx.update({ summary: `${cfg.tprocc.warehouses} warehouses and CH-benCHmark's 3 tables built in ${secs.toFixed(1)} s` });
    return 'completed';
  } catch (e) {
    await discardAll(env, mon);
    throw SledgeError.is(e) ? e : new SledgeError('SLEDGE_E_DB', `loading the CH-benCHmark tables failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  } finally {
    await s?.close().catch(() => undefined);
  }
};

/** After a failed second part: drop the schema the first part built (reported, never raised over the build's own error). */
async function discardAll(env: JobEnv<ChbenchJobConfig>, mon: (text: string) => void): Promise<void> {
  const cfg = env.cfg;
  try {
    const admin = await tproccHooks(env.driver).openAdmin(chbenchTarget(cfg), mon);
    try {
      await admin.dropSchema();
    } finally {
      await admin.close();
    }
    mon('Build failed: dropped the schema it built');
  } catch (e) {
    mon(`Build failed, and dropping the schema it built failed too: ${e instanceof Error ? e.message : String(e)}; delete the schema before building again`);
  }
}
