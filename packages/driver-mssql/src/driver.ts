import type { AdminSession, AshSampler, BulkFormat, Driver, ErrorClass, LoaderSession, Logger, ProbeResult, VuSession, VuSessionOptions } from '@sledge/core';
import type { DriverFeatures, MssqlTarget } from '@sledge/protocol';
import { MssqlAdmin } from './admin.js';
import { MssqlAshSampler } from './ash/sampler.js';
import { mssqlAuthentication } from './config.js';
import { classifyError } from './errors.js';
import { probeTedious, tedious } from './library.js';
import { MssqlLoader } from './loader.js';
import { identifier } from './sqlfiles.js';
import { MssqlVu } from './vu.js';

/** Fail early, before any socket, on what a user can fix in the target. */
function preflight(t: MssqlTarget): void {
  tedious();
  identifier(t.database, 'target.database');
  mssqlAuthentication(t);
}

/**
 * SQL Server through tedious 19 (pure JavaScript, TDS 7.4): T-SQL stored
 * procedures, TDS bulk copy loads, TPM from 'Batch Requests/sec', ASH from
 * sys.dm_exec_requests (needs VIEW SERVER STATE).
 */
export const driver: Driver<MssqlTarget> = {
  engine: 'mssql',
  library: 'tedious',

  async probe(): Promise<ProbeResult> {
    return probeTedious();
  },

  features(): DriverFeatures {
    return { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: true, partition: false };
  },

  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: MssqlTarget, log: Logger): Promise<AdminSession> {
    preflight(t);
    return new MssqlAdmin(t, log);
  },

  async openLoader(t: MssqlTarget, log: Logger): Promise<LoaderSession> {
    preflight(t);
    return await MssqlLoader.open(t, log);
  },

  async openVu(t: MssqlTarget, o: VuSessionOptions): Promise<VuSession> {
    preflight(t);
    return await MssqlVu.open(t, o);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  async openAshSampler(t: MssqlTarget, log: Logger): Promise<AshSampler> {
    preflight(t);
    return await MssqlAshSampler.open(t, log);
  },
};
