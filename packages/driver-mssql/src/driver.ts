import type { AshSampler, AshSamplerOptions, Driver, EngineSession, ErrorClass, Logger, ProbeResult, QuerySession, QuerySessionOptions } from '@sledge/core';
import type { DriverFeatures, MssqlTarget } from '@sledge/protocol';
import { MssqlAdmin } from './tprocc/admin.js';
import { MssqlAshSampler } from './engine/ash/sampler.js';
import { classifyError } from './engine/errors.js';
import { probeTedious } from './engine/library.js';
import { openMssqlQuerySession } from './engine/query-session.js';
import { preflight } from './engine/preflight.js';
import { tproccHooks } from './tprocc/hooks.js';
import { tprochHooks } from './tproch/hooks.js';

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

  async openSession(t: MssqlTarget, log: Logger): Promise<EngineSession> {
    preflight(t);
    return new MssqlAdmin(t, log);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  async openAshSampler(t: MssqlTarget, log: Logger, opts?: AshSamplerOptions): Promise<AshSampler> {
    preflight(t);
    return await MssqlAshSampler.open(t, log, opts);
  },

  async openQuerySession(t: MssqlTarget, opts: QuerySessionOptions): Promise<QuerySession> {
    preflight(t);
    return await openMssqlQuerySession(t, opts);
  },

  schemaField: 'database',
  workloads: { tprocc: tproccHooks, tproch: tprochHooks },
};
