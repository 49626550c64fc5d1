import type { AdminSession, AshSampler, BulkFormat, Driver, ErrorClass, LoaderSession, Logger, ProbeResult, VuSession, VuSessionOptions } from '@sledge/core';
import type { DriverFeatures, OracleTarget } from '@sledge/protocol';
import { OracleAdmin, oracleVars } from './admin.js';
import { OracleAshSampler } from './ash/sampler.js';
import { classifyError } from './errors.js';
import { oracledb, probeOracledb } from './library.js';
import { OracleLoader } from './loader.js';
import { OracleVu } from './vu.js';

/** Fail early, before any socket: the library must load; the admin also splices names into DDL, so they must be valid. */
function preflight(t: OracleTarget, admin: boolean): void {
  oracledb();
  if (admin) oracleVars(t);
}

/**
 * Oracle through node-oracledb in thin mode (pure JavaScript, no Instant
 * Client): PL/SQL procedures, array DML loads, TPM from v$sysstat (or AWR
 * snapshots when target.useAwr, which needs the Diagnostics Pack). ASH from
 * V$SESSION, or V$ACTIVE_SESSION_HISTORY under the same useAwr switch.
 */
export const driver: Driver<OracleTarget> = {
  engine: 'oracle',
  library: 'oracledb',

  async probe(): Promise<ProbeResult> {
    return probeOracledb();
  },

  features(t: OracleTarget): DriverFeatures {
    return { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: true, partition: t.partition };
  },

  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: OracleTarget, log: Logger): Promise<AdminSession> {
    preflight(t, true);
    return new OracleAdmin(t, log);
  },

  async openLoader(t: OracleTarget, log: Logger): Promise<LoaderSession> {
    preflight(t, false);
    return await OracleLoader.open(t, log);
  },

  async openVu(t: OracleTarget, o: VuSessionOptions): Promise<VuSession> {
    preflight(t, false);
    return await OracleVu.open(t, o);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  async openAshSampler(t: OracleTarget, log: Logger): Promise<AshSampler> {
    preflight(t, false);
    return await OracleAshSampler.open(t, log);
  },
};
