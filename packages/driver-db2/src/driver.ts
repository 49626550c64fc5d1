import { tproccTarget, type AshSampler, type AshSamplerOptions, type Driver, type EngineSession, type ErrorClass, type Logger, type ProbeResult, type QuerySession, type QuerySessionOptions, type TproccTarget } from '@sledge/core';
import type { Db2Target, DriverFeatures } from '@sledge/protocol';
import { Db2Admin } from './tprocc/admin.js';
import { Db2AshSampler } from './engine/ash/sampler.js';
import { classifyError } from './engine/errors.js';
import { probeIbmDb } from './engine/library.js';
import { openDb2QuerySession } from './engine/query-session.js';
import { preflight } from './engine/preflight.js';
import { tproccHooks } from './tprocc/hooks.js';
import { tprochHooks } from './tproch/hooks.js';

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

  features(t: Db2Target | TproccTarget<Db2Target>): DriverFeatures {
    return { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'tuples', asyncSessions: true, createsDatabase: false, partition: 'partition' in t ? t.partition : false };
  },

  async openSession(t: Db2Target, log: Logger): Promise<EngineSession> {
    preflight(t);
    return new Db2Admin(tproccTarget(t), log);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  async openAshSampler(t: Db2Target, log: Logger, opts?: AshSamplerOptions): Promise<AshSampler> {
    preflight(t);
    return await Db2AshSampler.open(t, log, opts);
  },

  async openQuerySession(t: Db2Target, opts: QuerySessionOptions): Promise<QuerySession> {
    preflight(t);
    return await openDb2QuerySession(t, opts);
  },

  schemaField: 'database',
  workloads: { tprocc: tproccHooks, tproch: tprochHooks },
};
