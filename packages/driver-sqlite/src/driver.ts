import type { Driver, TprochHooks, TproccHooks, VuSessionOptions } from '@sledge/core';
import type { DriverFeatures, SqliteTarget } from '@sledge/protocol';
import { openAdminSession } from './tprocc/admin.js';
import { classifyError } from './engine/errors.js';
import { LIBRARY, probeLibrary } from './engine/library.js';
import { openLoaderSession } from './engine/loader.js';
import { openSqliteQuerySession } from './engine/query-session.js';
import { openSqliteParamSession } from './engine/param-session.js';
import { openVuSession, type SqliteVuSession } from './tprocc/session.js';
import { tprochHooks } from './tproch/hooks.js';

const FEATURES: DriverFeatures = {
  storedProcedures: false,
  tpmSource: 'client',
  bulkFormat: 'tuples',
  asyncSessions: false,
  createsDatabase: false,
  partition: false,
};

/** SQLite's TPROC-C hooks; its VU sessions also report lock wait vs execution time (SqliteVuSession). */
export interface SqliteTproccHooks extends TproccHooks<SqliteTarget> {
  openVu(target: SqliteTarget, opts: VuSessionOptions): Promise<SqliteVuSession>;
}

/** The SQLite driver, with its TPROC-C hooks typed as SqliteTproccHooks. */
export interface SqliteDriver extends Driver<SqliteTarget> {
  readonly workloads: { tprocc: SqliteTproccHooks; tproch: TprochHooks<SqliteTarget> };
}

/** TPROC-C on SQLite: prepared-statement transactions in-process, tuple loads. */
export const tproccHooks: SqliteTproccHooks = {
  bulkFormat: () => 'tuples',
  openAdmin: async (target, log) => openAdminSession(target, log),
  openLoader: async (target, log) => openLoaderSession(target, log),
  openVu: async (target, opts) => openVuSession(target, opts),
};

/**
 * The embedded default engine: SQLite through better-sqlite3, no server.
 * Transactions run in-process as prepared-statement sequences; better-sqlite3
 * is synchronous, so each VU gets its own worker thread and connection, and
 * they share the file through WAL (many readers, one writer at a time).
 */
export const driver: SqliteDriver = {
  engine: 'sqlite',
  library: LIBRARY,
  probe: async () => probeLibrary(),
  features: () => ({ ...FEATURES }),
  openSession: async (target, log) => openAdminSession(target, log),
  classifyError,
  openQuerySession: async (target, opts) => openSqliteQuerySession(target, opts),
  openParamSession: async (target, opts) => openSqliteParamSession(target, opts),
  localFileFields: ['file'],
  schemaField: 'file',
  workloads: { tprocc: tproccHooks, tproch: tprochHooks },
};
