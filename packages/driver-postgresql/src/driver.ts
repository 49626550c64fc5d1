import { tproccTarget } from '@sledge/core';
import type { AshSampler, AshSamplerOptions, Driver, EngineSession, ErrorClass, Logger, ParamSession, ParamSessionOptions, ProbeResult, QuerySession, QuerySessionOptions } from '@sledge/core';
import type { DriverFeatures, PostgresqlTarget } from '@sledge/protocol';
import { PgAdminSession } from './tprocc/admin.js';
import { PgAshSampler } from './engine/ash/sampler.js';
import { classifyError } from './engine/errors.js';
import { openPgQuerySession } from './engine/query-session.js';
import { openPgParamSession } from './engine/param-session.js';
import { pgScriptNativeVu } from './engine/script-native.js';
import { probePg } from './engine/probe.js';
import { tproccHooks } from './tprocc/hooks.js';
import { tprochHooks } from './tproch/hooks.js';

/**
 * The PostgreSQL driver: pg sessions, COPY bulk loads in PostgreSQL text
 * format, the five transactions as PL/pgSQL functions (or PG11+ procedures
 * with tprocc.schema.storedProcs; client-side statements with
 * target.noStoredProcs), TPM from pg_stat_database, ASH from pgsentinel
 * or pg_stat_activity. Its TPROC-C hooks offer the native libpq VU loop
 * (worker-native) with the same statements and rollback rule.
 */
export const driver: Driver<PostgresqlTarget> = {
  engine: 'postgresql',
  library: 'pg',

  probe(): Promise<ProbeResult> {
    return probePg();
  },

  features(t: PostgresqlTarget): DriverFeatures {
    return { storedProcedures: !t.noStoredProcs, tpmSource: 'engine', bulkFormat: 'pg-text', asyncSessions: true, createsDatabase: true, partition: true };
  },

  openSession(t: PostgresqlTarget, log: Logger): Promise<EngineSession> {
    return PgAdminSession.open(tproccTarget(t), log);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  openAshSampler(t: PostgresqlTarget, log: Logger, opts?: AshSamplerOptions): Promise<AshSampler> {
    return PgAshSampler.open(t, log, opts);
  },

  openQuerySession(t: PostgresqlTarget, opts: QuerySessionOptions): Promise<QuerySession> {
    return openPgQuerySession(t, opts);
  },

  openParamSession(t: PostgresqlTarget, opts: ParamSessionOptions): Promise<ParamSession> {
    return openPgParamSession(t, opts);
  },
  paramPipelines: true,
  scriptNativeVu: pgScriptNativeVu,

  schemaField: 'database',
  workloads: { tprocc: tproccHooks, tproch: tprochHooks },
};
