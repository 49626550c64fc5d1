import { describe, expect, it } from 'vitest';
import type { AshSample } from '@sledge/protocol';
import { OraSession } from '../connection.js';
import { driver } from '../../index.js';
import { parseOracleUrl } from '../url.js';
import { OracleAshSampler } from './sampler.js';

/**
 * Live ASH test, run only when SLEDGE_ORACLE_URL names a server, e.g.
 * oracle://sledge_contract:Tpcc_pw1@localhost:1521/FREEPDB1?system=system&systemPassword=manager
 * Sessions log in as the system user; the table SLEDGE_ASH_ORA is created
 * in its schema and dropped afterwards.
 */
const url = process.env['SLEDGE_ORACLE_URL'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!url)('Oracle ASH sampler (live, V$SESSION)', () => {
  it('sees a PL/SQL busy loop ON CPU and a row-lock wait as Lock with its blocker', async () => {
    const t = { ...parseOracleUrl(url!), useAwr: false };
    const s = (await driver.openAshSampler!(t, () => undefined)) as OracleAshSampler;
    expect(s.source).toBe('v$session');
    const open = (n: string) => OraSession.open(t, 'system', n);
    const [setup, burner, holder, waiter] = await Promise.all([open('sledge-ash-test'), open('sledge-vu-2'), open('sledge-vu-3'), open('sledge-vu-4')]);
    const sidOf = async (c: OraSession) => {
      const r = await c.query("SELECT TO_NUMBER(SYS_CONTEXT('USERENV', 'SID')) AS sid FROM dual");
      return Number(r[0]!['sid']);
    };
    const sids = await Promise.all([burner, holder, waiter].map(sidOf));
    const running: Promise<unknown>[] = [];
    try {
      await setup.execute("BEGIN EXECUTE IMMEDIATE 'DROP TABLE sledge_ash_ora'; EXCEPTION WHEN OTHERS THEN NULL; END;");
      await setup.execute('CREATE TABLE sledge_ash_ora (id NUMBER PRIMARY KEY, v NUMBER)');
      await setup.execute('INSERT INTO sledge_ash_ora VALUES (1, 0)');
      await setup.commit();
      running.push(
        burner.execute("DECLARE x NUMBER := 0; t_end TIMESTAMP := SYSTIMESTAMP + INTERVAL '8' SECOND; BEGIN WHILE SYSTIMESTAMP < t_end LOOP x := x + 1; END LOOP; END;").catch(() => undefined),
      );
      await holder.execute('UPDATE sledge_ash_ora SET v = v + 1 WHERE id = 1');
      running.push(waiter.execute('UPDATE sledge_ash_ora SET v = v + 1 WHERE id = 1').catch(() => undefined));
      const of = (xs: AshSample[], i: number) => xs.find((x) => x.session.startsWith(`${sids[i]},`));
      let xs: AshSample[] = [];
      for (let i = 0; i < 30; i++) {
        xs = await s.sample();
        if (of(xs, 0)?.waitClass === 'CPU' && of(xs, 2)?.waitClass === 'Lock') break;
        await sleep(200);
      }
      expect(of(xs, 0)).toMatchObject({ vu: 2, waitClass: 'CPU', event: 'CPU' });
      expect(of(xs, 2)).toMatchObject({ vu: 4, waitClass: 'Lock', event: 'enq: TX - row lock contention', engineClass: 'Application' });
      expect(of(xs, 2)!.blocking!.startsWith(`${sids[1]},`)).toBe(true);
    } finally {
      await holder.rollback().catch(() => undefined);
      await Promise.all(running);
      await waiter.rollback().catch(() => undefined);
      await setup.execute('DROP TABLE sledge_ash_ora PURGE').catch(() => undefined);
      await Promise.all([setup, burner, holder, waiter].map((c) => c.close().catch(() => undefined)));
      await s.close();
    }
  });
});
