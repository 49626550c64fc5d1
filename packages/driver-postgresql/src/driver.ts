import type { AdminSession, AshSampler, Driver, ErrorClass, LoaderSession, Logger, NativeVuSpec, ProbeResult, VuSession, VuSessionOptions, BulkFormat } from '@sledge/core';
import type { DriverFeatures, PostgresqlTarget } from '@sledge/protocol';
import { PgAdminSession } from './admin.js';
import { PgAshSampler } from './ash/sampler.js';
import { libpqConninfo } from './config.js';
import { classifyError, ROLLBACK_SQLSTATE } from './errors.js';
import { PgLoaderSession } from './loader.js';
import { probePg } from './probe.js';
import { callStatements, PgVuSession } from './vu.js';

/**
 * The PostgreSQL driver: pg sessions, COPY bulk loads in PostgreSQL text
 * format, the five transactions as PL/pgSQL functions (or PG11+ procedures
 * with target.storedProcs), TPM from pg_stat_database, ASH from pgsentinel
 * or pg_stat_activity. nativeVuSpec lets the server run VUs in the native
 * libpq loop (worker-native) with the same statements and rollback rule.
 */
export const driver: Driver<PostgresqlTarget> = {
  engine: 'postgresql',
  library: 'pg',

  probe(): Promise<ProbeResult> {
    return probePg();
  },

  features(_t: PostgresqlTarget): DriverFeatures {
    return { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'pg-text', asyncSessions: true, createsDatabase: true, partition: true };
  },

  bulkFormat(_t: PostgresqlTarget): BulkFormat {
    return 'pg-text';
  },

  openAdmin(t: PostgresqlTarget, log: Logger): Promise<AdminSession> {
    return PgAdminSession.open(t, log);
  },

  openLoader(t: PostgresqlTarget, log: Logger): Promise<LoaderSession> {
    return PgLoaderSession.open(t, log);
  },

  openVu(t: PostgresqlTarget, opts: VuSessionOptions): Promise<VuSession> {
    return PgVuSession.open(t, opts);
  },

  classifyError(e: unknown): ErrorClass {
    return classifyError(e);
  },

  openAshSampler(t: PostgresqlTarget, log: Logger): Promise<AshSampler> {
    return PgAshSampler.open(t, log);
  },

  nativeVuSpec(t: PostgresqlTarget): NativeVuSpec {
    return { kind: 'libpq', conninfo: libpqConninfo(t, 'user'), statements: callStatements(t), rollbackSqlstate: ROLLBACK_SQLSTATE };
  },
};
