import { checkSampleWarehouses, evaluateCheck, tproccHooks, tproccTarget } from '@sledge/core';
import { ENGINE_DISPLAY, SledgeError, type CheckItem, type TproccJobConfig } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';

type Admin = Awaited<ReturnType<ReturnType<typeof tproccHooks>['openAdmin']>>;

/** checkschema's checks of a schema of W warehouses (consistency C1-C4 on the sampled warehouses): the check job's and a run's `verify`. */
export async function checkItems(admin: Admin, W: number, mon: (text: string) => void): Promise<CheckItem[]> {
  const sample = W > 0 ? checkSampleWarehouses(W) : [];
  mon(W > 0 ? `Consistency checks on warehouses ${sample.join(',')}` : 'No warehouses found');
  const facts = await admin.checkFacts(sample);
  return evaluateCheck(facts, W > 0 ? W : null);
}

/** checkschema (hammerdb.md §5.5): every check, including consistency C1-C4, on sampled warehouses. */
export const checkJob: JobBody<TproccJobConfig> = async ({ ctx, cfg, driver, explicit }) => {
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tproccHooks(driver).openAdmin(tproccTarget(cfg.target, cfg.tprocc.schema), mon);
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    ctx.status('running');
    mon(`Checking ${ENGINE_DISPLAY[cfg.target.engine]} TPROC-C schema`);
    const state = await admin.schemaState();
    const W = explicit.has('warehouses') ? cfg.tprocc.warehouses : state.warehouses;
    const items = await checkItems(admin, W, mon);
    items.forEach((it, i) => mon(`Check ${i + 1}: ${it.name}: ${it.ok ? 'OK' : 'FAILED'} (${it.detail})`));
    ctx.check(items);
    const failed = items.filter((i) => !i.ok);
    if (failed.length) {
      throw new SledgeError('SLEDGE_E_SCHEMA_INVALID', `checkschema failed: ${failed.map((f) => `${f.name} (${f.detail})`).join('; ')}`);
    }
    mon(`${ENGINE_DISPLAY[cfg.target.engine]} TPROC-C Schema has been checked successfully.`);
    ctx.update({ summary: `schema OK, ${W} warehouses` });
    return 'completed';
  } finally {
    await admin.close();
  }
};
