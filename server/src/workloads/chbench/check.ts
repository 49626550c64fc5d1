import { checkSampleWarehouses, evaluateCheck, tproccHooks } from '@sledge/core';
import { CHBENCH_TABLES } from '@sledge/core/chbench';
import { ENGINE_DISPLAY, SledgeError, type CheckItem } from '@sledge/protocol';
import type { JobBody } from '../../engine/job-types.js';
import type { ChbenchJobConfig } from '@sledge/protocol';
import { chbenchFiles, chbenchTarget, openChbenchSession } from './sql.js';
import { CHBENCH_EXPECTED_ROWS, extraTableCounts } from './tables.js';

/** CH-benCHmark's checkschema: TPROC-C's checks (consistency C1-C4 on sampled warehouses), then the rows of REGION, NATION and SUPPLIER. */
export const checkJob: JobBody<ChbenchJobConfig> = async ({ ctx, cfg, driver, explicit }) => {
  const mon = (text: string) => ctx.output(1, text);
  const admin = await tproccHooks(driver).openAdmin(chbenchTarget(cfg), mon);
  try {
    const version = await admin.serverVersion();
    ctx.update({ engineVersion: version });
    mon(`DBVersion:${version}`);
    ctx.status('running');
    mon(`Checking ${ENGINE_DISPLAY[cfg.target.engine]} CH-benCHmark schema`);
    const state = await admin.schemaState();
    const W = explicit.has('warehouses') ? cfg.tprocc.warehouses : state.warehouses;
    const sample = W > 0 ? checkSampleWarehouses(W) : [];
    mon(W > 0 ? `Consistency checks on warehouses ${sample.join(',')}` : 'No warehouses found');
    const items: CheckItem[] = evaluateCheck(await admin.checkFacts(sample), W > 0 ? W : null);
    const s = await openChbenchSession(driver, cfg, 'chbench-check', { log: mon });
    try {
      const counts = await extraTableCounts(s, chbenchFiles(cfg));
      for (const t of CHBENCH_TABLES) {
        const n = counts[t];
        const want = CHBENCH_EXPECTED_ROWS[t];
        items.push({ name: `${t.toUpperCase()} rows`, ok: n === want, detail: n === null ? 'table not found' : `${n} of ${want}` });
      }
    } finally {
      await s.close();
    }
    items.forEach((it, i) => mon(`Check ${i + 1}: ${it.name}: ${it.ok ? 'OK' : 'FAILED'} (${it.detail})`));
    ctx.check(items);
    const failed = items.filter((i) => !i.ok);
    if (failed.length) throw new SledgeError('SLEDGE_E_SCHEMA_INVALID', `checkschema failed: ${failed.map((f) => `${f.name} (${f.detail})`).join('; ')}`);
    mon(`${ENGINE_DISPLAY[cfg.target.engine]} CH-benCHmark Schema has been checked successfully.`);
    ctx.update({ summary: `schema OK, ${W} warehouses and CH-benCHmark's 3 tables` });
    return 'completed';
  } finally {
    await admin.close();
  }
};
