import { tproccTarget, type AshSampler, type AshSamplerOptions, type Driver, type EngineSession, type ErrorClass, type Logger, type ProbeResult, type ParamSession, type ParamSessionOptions, type QuerySession, type QuerySessionOptions } from '@sledge/core';
import type { DriverFeatures } from '@sledge/protocol';
import { MyAdmin } from './tprocc/admin.js';
import { MyAshSampler } from './engine/ash/sampler.js';
import { loadMysql2, mysql2Version } from './engine/connect.js';
import { classifyError } from './engine/errors.js';
import { openMyQuerySession } from './engine/query-session.js';
import { openMyParamSession } from './engine/param-session.js';
import type { FamilyOptions } from './engine/family.js';
import type { Flavour, MyTarget } from './engine/flavour.js';
import { sqlFor, type SqlSet } from './tprocc/sqlfiles.js';
import { mysqlFamilyTproccHooks } from './tprocc/hooks.js';
import { mysqlFamilyTprochHooks } from './tproch/hooks.js';

export type { FamilyOptions } from './engine/family.js';

/**
 * The MySQL-family driver for one flavour. Everything engine-specific is
 * in the flavour (name, SQL directory and its fallbacks) and in the SQL
 * files; the code is shared.
 */
export function mysqlFamilyDriver<T extends MyTarget>(flavour: Flavour<T['engine']>, o: FamilyOptions = {}): Driver<T> {
  let sqlSet: SqlSet | undefined;
  const sql = (): SqlSet => (sqlSet ??= sqlFor(flavour));

  return {
    engine: flavour.engine,
    library: 'mysql2',

    async probe(): Promise<ProbeResult> {
      try {
        await loadMysql2();
        return { available: true, libraryVersion: mysql2Version() };
      } catch (e) {
        return {
          available: false,
          reason: `mysql2 does not load: ${(e as Error).message}`,
          install: 'pnpm --filter @sledge/driver-mysql add mysql2@^3.15.0',
        };
      }
    },

    features(target: T): DriverFeatures {
      return {
        storedProcedures: !target.noStoredProcs,
        tpmSource: 'engine',
        bulkFormat: 'csv',
        asyncSessions: true,
        createsDatabase: true,
        partition: true,
      };
    },

    async openSession(target: T, log: Logger): Promise<EngineSession> {
      return new MyAdmin(tproccTarget(target), flavour, sql(), log, o.purgeBoundMs);
    },

    classifyError(e: unknown): ErrorClass {
      return classifyError(e);
    },

    async openAshSampler(target: T, log: Logger, opts?: AshSamplerOptions): Promise<AshSampler> {
      return MyAshSampler.open(target, flavour, log, opts);
    },

    openQuerySession(target: T, opts: QuerySessionOptions): Promise<QuerySession> {
      return openMyQuerySession(target, flavour, opts);
    },

    openParamSession(target: T, opts: ParamSessionOptions): Promise<ParamSession> {
      return openMyParamSession(target, flavour, opts);
    },

    schemaField: 'database',
    workloads: { tprocc: mysqlFamilyTproccHooks<T>(flavour, sql, o), tproch: mysqlFamilyTprochHooks<T>(flavour) },
  };
}
