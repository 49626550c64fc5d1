import { tproccTarget } from '@sledge/core';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { OracleTarget, SledgeError, validate } from '@sledge/protocol';
import driverDefault, { driver } from './index.js';

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('Oracle driver (offline)', () => {
  it('is the default and the named export', () => {
    expect(driverDefault).toBe(driver);
    expect(driver.engine).toBe('oracle');
    expect(driver.library).toBe('oracledb');
  });

  it('probe: oracledb loads in thin mode', async () => {
    const p = await driver.probe();
    expect(p.available).toBe(true);
    expect(p.libraryVersion).toMatch(/^\d+\.\d+\.\d+ \(thin mode\)$/);
  });

  it('declares its features', () => {
    const t = tproccTarget(validate(OracleTarget, { engine: 'oracle' }));
    expect(driver.features(t)).toEqual({ storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: true, partition: false });
    expect(driver.features({ ...t, partition: true }).partition).toBe(true);
    expect(driver.workloads.tprocc!.bulkFormat(t)).toBe('tuples');
  });

  it('reports a closed port as SLEDGE_E_CONNECT target.connectString, through a real thin-mode connect', async () => {
    const t = tproccTarget(validate(OracleTarget, { engine: 'oracle', connectString: `127.0.0.1:${await closedPort()}/FREEPDB1`, systemPassword: 'sys-pw-not-shown' }));
    const admin = await driver.workloads.tprocc!.openAdmin(t, () => undefined);
    try {
      await admin.serverVersion();
      throw new Error('expected SLEDGE_E_CONNECT');
    } catch (e) {
      expect(SledgeError.is(e), String(e)).toBe(true);
      expect((e as SledgeError).code).toBe('SLEDGE_E_CONNECT');
      expect((e as SledgeError).field).toBe('target.connectString');
      expect((e as Error).message).not.toContain('sys-pw-not-shown');
    } finally {
      await admin.close();
    }
    await expect(driver.workloads.tprocc!.openVu(t, { vu: 2, log: () => undefined })).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT' });
    await expect(driver.workloads.tprocc!.openLoader(t, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT' });
  });

  it('refuses names it cannot splice into DDL before connecting', async () => {
    const t = tproccTarget(validate(OracleTarget, { engine: 'oracle', user: 'tpcc user' }));
    await expect(driver.workloads.tprocc!.openAdmin(t, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.user' });
    await expect(driver.workloads.tprocc!.openAdmin({ ...t, user: 'tpcc', tempTablespace: '9TEMP' }, () => undefined)).rejects.toMatchObject({ field: 'tprocc.schema.tempTablespace' });
  });
});
