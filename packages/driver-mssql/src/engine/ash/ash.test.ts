import { describe, expect, it } from 'vitest';
import type { AshSample } from '@sledge/protocol';
import { TdsConnection } from '../connection.js';
import { driver } from '../../index.js';
import { parseMssqlUrl } from '../url.js';
import { MssqlAshSampler } from './sampler.js';

/**
 * Live ASH test, run only when SLEDGE_MSSQL_URL names a server whose login
 * has VIEW SERVER STATE (sa does), e.g.
 * mssql://sa:Passw0rd!@localhost:1433/master?encrypt=true&trustServerCertificate=true
 * It creates and drops the table tempdb..sledge_ash_ms.
 */
const url = process.env['SLEDGE_MSSQL_URL'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!url)('SQL Server ASH sampler (live)', () => {
  it('sees a WAITFOR as Timeout, a blocked update as Lock with its blocker, and never itself', async () => {
    const t = { ...parseMssqlUrl(url!), database: 'tempdb' };
    const s = (await driver.openAshSampler!(t, () => undefined)) as MssqlAshSampler;
    const open = (app: string) => TdsConnection.open(t, { database: 'tempdb', appName: app });
    const [setup, sleeper, holder, waiter] = await Promise.all([open('sledge-ash-test'), open('sledge-vu-2'), open('sledge-vu-3'), open('sledge-vu-4')]);
    const spid = async (c: TdsConnection) => Number((await c.query('SELECT @@SPID AS id'))[0]!['id']);
    const ids = await Promise.all([sleeper, holder, waiter].map(spid));
    const running: Promise<unknown>[] = [];
    try {
      await setup.exec("IF OBJECT_ID('dbo.sledge_ash_ms') IS NOT NULL DROP TABLE dbo.sledge_ash_ms; CREATE TABLE dbo.sledge_ash_ms (id int PRIMARY KEY, v int); INSERT dbo.sledge_ash_ms VALUES (1, 0);");
      running.push(sleeper.exec("WAITFOR DELAY '00:00:20'").catch(() => undefined));
      await holder.begin();
      await holder.exec('UPDATE dbo.sledge_ash_ms SET v = v + 1 WHERE id = 1');
      running.push(waiter.exec('UPDATE dbo.sledge_ash_ms SET v = v + 1 WHERE id = 1').catch(() => undefined));
      const of = (xs: AshSample[], i: number) => xs.find((x) => x.session === String(ids[i]));
      let xs: AshSample[] = [];
      for (let i = 0; i < 40; i++) {
        xs = await s.sample();
        if (of(xs, 0) && of(xs, 2)?.waitClass === 'Lock') break;
        await sleep(250);
      }
      expect(of(xs, 0)).toMatchObject({ vu: 2, waitClass: 'Timeout', event: 'WAITFOR' });
      expect(of(xs, 2)).toMatchObject({ vu: 4, waitClass: 'Lock', blocking: String(ids[1]) });
      expect(of(xs, 2)!.event).toMatch(/^LCK_M_/);
      const own = Number((await setup.query("SELECT MIN(session_id) AS id FROM sys.dm_exec_sessions WHERE program_name = 'sledge-ash'"))[0]!['id']);
      expect(xs.map((x) => x.session)).not.toContain(String(own));
    } finally {
      await holder.rollback().catch(() => undefined);
      await setup.exec(`KILL ${ids[0]}`).catch(() => undefined);
      await Promise.all(running);
      await setup.exec("IF OBJECT_ID('dbo.sledge_ash_ms') IS NOT NULL DROP TABLE dbo.sledge_ash_ms").catch(() => undefined);
      await Promise.all([setup, sleeper, holder, waiter].map((c) => c.close()));
      await s.close();
    }
  });
});
