import type { AdminSession, AshSampler, BulkFormat, Driver, ErrorClass, LoaderSession, Logger, ProbeResult, VuSession, VuSessionOptions } from '@sledge/core';
import type { Db2Target, DriverFeatures } from '@sledge/protocol';
import { Db2Admin } from './admin.js';
import { Db2AshSampler } from './ash/sampler.js';
import { db2ConnectionString } from './config.js';
import { classifyError } from './errors.js';
import { ibmDb, probeIbmDb } from './library.js';
import { Db2Loader } from './loader.js';
import { Db2Vu } from './vu.js';

/**
 * The library must load (else SLEDGE_E_DRIVER_UNAVAILABLE with the install
 * steps) and the target must make a valid CLI connection string.
 */
function preflight(t: Db2Target): void {
  ibmDb();
  db2ConnectionString(t);
}

/**
 * Db2 LUW through ibm_db, an optional native dependency loaded on first
 * use: SQL PL procedures, multi-row INSERT loads, TPM from
 * sysibmadm.mon_db_summary, ASH from MON_GET_AGENT. ibm_db runs each call on the libuv thread pool:
 * with many VUs per worker, raise UV_THREADPOOL_SIZE (default 4).
 */
export const driver: Driver<Db2Target> = {
  engine: 'db2',
  library: 'ibm_db',

  async probe(): Promise<ProbeResult> {
    return probeIbmDb();
  },

  features(t: Db2Target): DriverFeatures {
    return { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: false, partition: t.partition };
  },

  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: Db2Target, log: Logger): Promise<AdminSession> {
    preflight(t);
    return new Db2Admin(t, log);
  },

  async openLoader(t: Db2Target, log: Logger): Promise<LoaderSession> {
    preflight(t);
    return await Db2Loader.open(t, log);
  },

  async openVu(t: Db2Target, o: VuSessionOptions): Promise<VuSession> {
    preflight(t);
    return await Db2Vu.open(t, o);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  async openAshSampler(t: Db2Target, log: Logger): Promise<AshSampler> {
    preflight(t);
    return await Db2AshSampler.open(t, log);
  },
};
