import type { Driver, EngineSession, TproccHooks, TproccTarget, TprochHooks } from '@sledge/core';
import type { DriverFeatures, DuckdbTarget } from '@sledge/protocol';
import { classifyError } from './engine/errors.js';
import { api, LIBRARY, probeLibrary } from './engine/library.js';
import { openDuckdbParamSession } from './engine/param-session.js';
import { openDuckdbQuerySession } from './engine/query-session.js';
import { tprochHooks } from './tproch/hooks.js';
import { tproccHooks } from './tprocc/hooks.js';

const FEATURES: DriverFeatures = {
  storedProcedures: false,
  tpmSource: 'client',
  bulkFormat: 'csv',
  asyncSessions: true,
  createsDatabase: false,
  partition: false,
  // One instance per file per thread (engine/connection.ts): the script workload's VUs run where the
  // admin session and TPROC-H streams do, on the server's main thread, each on a connection of its own.
  mainThreadSessions: true,
};

/**
 * Workloads this engine does not run at all, and why (capabilities show the
 * reason; asking for one is SLEDGE_E_DRIVER_UNAVAILABLE with it). None:
 * TPROC-C is offered in part, its schema without its transactions
 * (tprocc/hooks.ts NO_TRANSACTIONS, the hooks' noTransactions), so
 * CH-benCHmark's analytic streams run on DuckDB.
 */
export const NOT_OFFERED = {} as const;

/** The DuckDB driver: TPROC-H, scripts, TPROC-C's schema without its transactions, CH-benCHmark's analytic streams. */
export interface DuckdbDriver extends Driver<DuckdbTarget> {
  readonly workloads: { tproch: TprochHooks<DuckdbTarget>; tprocc: TproccHooks<TproccTarget<DuckdbTarget>> };
  readonly notOffered: typeof NOT_OFFERED;
}

/** The engine session of /targets/test: the library's DuckDB version; the file is not opened. */
function engineSession(): EngineSession {
  return {
    serverVersion: async () => api().version().replace(/^v/, ''),
    close: async () => undefined,
  };
}

/**
 * The embedded analytic engine: DuckDB through @duckdb/node-api, no server.
 * A file (or ':memory:') is the database; queries run on DuckDB's own
 * threads off the JavaScript thread, so sessions are async and a query is
 * stopped by interrupting its connection.
 */
export const driver: DuckdbDriver = {
  engine: 'duckdb',
  library: LIBRARY,
  probe: async () => probeLibrary(),
  features: () => ({ ...FEATURES }),
  openSession: async () => engineSession(),
  classifyError,
  openQuerySession: async (target, opts) => openDuckdbQuerySession(target, opts),
  // The script workload's VU session (no pipelines: DuckDB has no protocol to pipeline).
  openParamSession: async (target, opts) => openDuckdbParamSession(target, opts),
  localFileFields: ['file'],
  schemaField: 'file',
  workloads: { tproch: tprochHooks, tprocc: tproccHooks },
  notOffered: NOT_OFFERED,
};
