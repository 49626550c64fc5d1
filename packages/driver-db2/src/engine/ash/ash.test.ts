import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Db2Target, SledgeError, validate, type AshSample } from '@sledge/protocol';
import { Db2Session } from '../connection.js';
import { driver } from '../../index.js';
import { parseDb2Url } from '../url.js';
import { setClientApplName } from './clientinfo.js';
import type { Db2AshSampler } from './sampler.js';

function ibmDbLoads(): boolean {
  try {
    createRequire(import.meta.url)('ibm_db');
    return true;
  } catch {
    return false;
  }
}
const available = ibmDbLoads();
const url = process.env['SLEDGE_DB2_URL'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Db2 ASH sampler', () => {
  it.runIf(!available)('rejects with SLEDGE_E_DRIVER_UNAVAILABLE and the install steps when ibm_db does not load', async () => {
    const err = await driver.openAshSampler!(validate(Db2Target, { engine: 'db2' }), () => undefined).then(
      () => null,
      (e: unknown) => e,
    );
    expect(SledgeError.is(err)).toBe(true);
    expect((err as SledgeError).code).toBe('SLEDGE_E_DRIVER_UNAVAILABLE');
    expect((err as Error).message).toContain('pnpm rebuild ibm_db');
  });

  /**
   * Live, only with SLEDGE_DB2_URL (e.g. db2://db2inst1:password@localhost:50000/SLEDGE) and a
   * loading ibm_db. Creates and drops the table SLEDGE_ASH_DB2 in the user's schema.
   */
  it.runIf(available && !!url)('sees a blocked UPDATE as Lock with its holder, with the VU from CLIENT_APPLNAME', async () => {
    const t = parseDb2Url(url!);
    const s = (await driver.openAshSampler!(t, () => undefined)) as Db2AshSampler;
    const [setup, holder, waiter] = await Promise.all([Db2Session.open(t), Db2Session.open(t), Db2Session.open(t)]);
    await setClientApplName(holder, 'sledge-vu-2');
    await setClientApplName(waiter, 'sledge-vu-3');
    const handle = async (c: Db2Session) => String((await c.query('SELECT MON_GET_APPLICATION_HANDLE() AS h FROM sysibm.sysdummy1'))[0]!['h']);
    const [holderId, waiterId] = await Promise.all([handle(holder), handle(waiter)]);
    let running: Promise<unknown> = Promise.resolve();
    try {
      await setup.exec('DROP TABLE sledge_ash_db2').catch(() => undefined);
      await setup.exec('CREATE TABLE sledge_ash_db2 (id INTEGER NOT NULL PRIMARY KEY, v INTEGER)');
      await setup.exec('INSERT INTO sledge_ash_db2 VALUES (1, 0)');
      await holder.begin();
      await holder.exec('UPDATE sledge_ash_db2 SET v = v + 1 WHERE id = 1');
      running = waiter.exec('UPDATE sledge_ash_db2 SET v = v + 1 WHERE id = 1').catch(() => undefined);
      let xs: AshSample[] = [];
      for (let i = 0; i < 30; i++) {
        xs = await s.sample();
        if (xs.find((x) => x.session === waiterId)?.waitClass === 'Lock') break;
        await sleep(200);
      }
      expect(xs.find((x) => x.session === waiterId)).toMatchObject({ vu: 3, waitClass: 'Lock', blocking: holderId });
    } finally {
      await holder.rollback().catch(() => undefined);
      await running;
      await setup.exec('DROP TABLE sledge_ash_db2').catch(() => undefined);
      await Promise.all([setup, holder, waiter].map((c) => c.close().catch(() => undefined)));
      await s.close();
    }
  });
});
