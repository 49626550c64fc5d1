import { tproccTarget } from '@sledge/core';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MssqlTarget, SledgeError, validate } from '@sledge/protocol';
import driverDefault, { driver } from './index.js';

/** A local TCP port nobody listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('SQL Server driver (offline)', () => {
  it('is the default and the named export', () => {
    expect(driverDefault).toBe(driver);
    expect(driver.engine).toBe('mssql');
    expect(driver.library).toBe('tedious');
  });

  it('probe: tedious 19 loads', async () => {
    const p = await driver.probe();
    expect(p.available).toBe(true);
    expect(p.libraryVersion).toMatch(/^19\./);
  });

  it('declares its features', () => {
    const t = tproccTarget(validate(MssqlTarget, { engine: 'mssql' }));
    expect(driver.features(t)).toEqual({ storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: true, partition: false });
    expect(driver.workloads.tprocc!.bulkFormat(t)).toBe('tuples');
    expect(driver.workloads.tprocc!.bulkFormat({ ...t, useBulk: false })).toBe('tuples');
  });

  it('reports a closed port as SLEDGE_E_CONNECT target.port, through a real tedious connect', async () => {
    const t = tproccTarget(validate(MssqlTarget, { engine: 'mssql', host: '127.0.0.1', port: await closedPort(), password: 'not-this-one' }));
    const admin = await driver.workloads.tprocc!.openAdmin(t, () => undefined);
    try {
      await admin.serverVersion();
      throw new Error('expected SLEDGE_E_CONNECT');
    } catch (e) {
      expect(SledgeError.is(e)).toBe(true);
      expect((e as SledgeError).code).toBe('SLEDGE_E_CONNECT');
      expect((e as SledgeError).field).toBe('target.port');
      expect((e as Error).message).not.toContain('not-this-one');
    } finally {
      await admin.close();
    }
    await expect(driver.workloads.tprocc!.openVu(t, { vu: 2, log: () => undefined })).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT' });
    await expect(driver.workloads.tprocc!.openLoader(t, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_CONNECT' });
  });

  it('refuses an unusable database name before connecting', async () => {
    const t = { ...tproccTarget(validate(MssqlTarget, { engine: 'mssql' })), database: 'x]y' };
    await expect(driver.workloads.tprocc!.openAdmin(t, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.database' });
  });

  it('asks for the Azure client id before connecting', async () => {
    const t = tproccTarget(validate(MssqlTarget, { engine: 'mssql', authentication: 'azure-active-directory-password' }));
    await expect(driver.workloads.tprocc!.openVu(t, { vu: 2, log: () => undefined })).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.azureClientId' });
  });
});
