import { tproccTarget, type AshSampler, type AshSamplerOptions, type Driver, type EngineSession, type ErrorClass, type Logger, type ProbeResult, type QuerySession, type QuerySessionOptions, type TproccTarget } from '@sledge/core';
import type { DriverFeatures, OracleTarget } from '@sledge/protocol';
import { OracleAdmin } from './tprocc/admin.js';
import { OracleAshSampler } from './engine/ash/sampler.js';
import { classifyError } from './engine/errors.js';
import { probeOracledb } from './engine/library.js';
import { openOracleQuerySession } from './engine/query-session.js';
import { preflight } from './engine/preflight.js';
import { tproccHooks } from './tprocc/hooks.js';
import { tprochHooks } from './tproch/hooks.js';

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

  features(t: OracleTarget | TproccTarget<OracleTarget>): DriverFeatures {
    return { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: true, partition: 'partition' in t ? t.partition : false };
  },

  async openSession(t: OracleTarget, log: Logger): Promise<EngineSession> {
    const tt = tproccTarget(t);
    preflight(tt);
    return new OracleAdmin(tt, log);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  async openAshSampler(t: OracleTarget, log: Logger, opts?: AshSamplerOptions): Promise<AshSampler> {
    preflight(t);
    return await OracleAshSampler.open(t, log, opts);
  },

  async openQuerySession(t: OracleTarget, opts: QuerySessionOptions): Promise<QuerySession> {
    preflight(t);
    return await openOracleQuerySession(t, opts);
  },

  schemaField: 'database',
  workloads: { tprocc: tproccHooks, tproch: tprochHooks },
};
