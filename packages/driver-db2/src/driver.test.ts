import { tproccTarget } from '@sledge/core';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Db2Target, SledgeError, validate } from '@sledge/protocol';
import driverDefault, { INSTALL_IBM_DB, driver } from './index.js';

/** Does ibm_db load in this process? On this machine its native build was skipped, so it does not. */
function ibmDbLoads(): boolean {
  try {
    createRequire(import.meta.url)('ibm_db');
    return true;
  } catch {
    return false;
  }
}
const available = ibmDbLoads();
const t = tproccTarget(validate(Db2Target, { engine: 'db2', password: 'db2-secret' }));

describe('Db2 driver (offline)', () => {
  it('imports without loading ibm_db, and is the default and the named export', () => {
    expect(driverDefault).toBe(driver);
    expect(driver.engine).toBe('db2');
    expect(driver.library).toBe('ibm_db');
  });

  it('declares its features without the library', () => {
    expect(driver.features(t)).toEqual({ storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: false, partition: false });
    expect(driver.features({ ...t, partition: true }).partition).toBe(true);
    expect(driver.workloads.tprocc!.bulkFormat(t)).toBe('tuples');
    expect(driver.classifyError({ message: 'Connection not open.', sqlstate: '08001', sqlcode: -30081 }).kind).toBe('connection');
  });

  it.runIf(!available)('probe: unavailable, with the load error and the install steps', async () => {
    const p = await driver.probe();
    expect(p.available).toBe(false);
    expect(p.reason).toMatch(/bindings file|cannot find|ibm_db/i);
    expect(p.reason).not.toContain('\n');
    expect(p.reason).toMatch(/^ibm_db does not load: /);
    expect(p.reason).not.toMatch(/Tried:$/);
    expect(p.install).toBe(INSTALL_IBM_DB);
    expect(p.install).toContain('IBM_DB_HOME');
    expect(p.install).toContain('IBM_DB_INSTALLER_URL');
    expect(p.install).toContain('pnpm approve-builds');
    expect(p.install).toContain('pnpm rebuild ibm_db');
    expect(p.install).toContain('LD_LIBRARY_PATH');
    // A second probe answers the same, without throwing.
    expect(await driver.probe()).toEqual(p);
  });

  it.runIf(!available)('every session method rejects with SLEDGE_E_DRIVER_UNAVAILABLE and the install steps', async () => {
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['openAdmin', () => driver.workloads.tprocc!.openAdmin(t, () => undefined)],
      ['openLoader', () => driver.workloads.tprocc!.openLoader(t, () => undefined)],
      ['openVu', () => driver.workloads.tprocc!.openVu(t, { vu: 2, log: () => undefined })],
    ];
    for (const [name, call] of calls) {
      let err: unknown;
      try {
        await call();
      } catch (e) {
        err = e;
      }
      expect(SledgeError.is(err), name).toBe(true);
      expect((err as SledgeError).code, name).toBe('SLEDGE_E_DRIVER_UNAVAILABLE');
      expect((err as Error).message, name).toContain('pnpm rebuild ibm_db');
      expect((err as Error).message, name).not.toContain('db2-secret');
    }
  });

  it.runIf(available)('probe: ibm_db loads', async () => {
    const p = await driver.probe();
    expect(p.available).toBe(true);
  });
});
