import type { Driver, EngineSession, TprochHooks } from '@sledge/core';
import type { DriverFeatures, DuckdbTarget } from '@sledge/protocol';
import { classifyError } from './engine/errors.js';
import { api, LIBRARY, probeLibrary } from './engine/library.js';
import { openDuckdbParamSession } from './engine/param-session.js';
import { openDuckdbQuerySession } from './engine/query-session.js';
import { tprochHooks } from './tproch/hooks.js';

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
 * Workloads this engine does not run, and why (capabilities show the
 * reason; asking for one is SLEDGE_E_DRIVER_UNAVAILABLE with it).
 */
export const NOT_OFFERED = {
  tprocc:
    "Conflicting updates abort (optimistic concurrency). DuckDB's concurrency control aborts one of two transactions that update the same rows (\"Conflict on update\"), and TPROC-C's virtual users update the same DISTRICT and WAREHOUSE rows all the time: most new-order and payment transactions would fail rather than wait, so NOPM would measure conflicts, not throughput. Run TPROC-C on SQLite or a server engine.",
} as const;

/** The DuckDB driver: TPROC-H and scripts (see NOT_OFFERED for TPROC-C). */
export interface DuckdbDriver extends Driver<DuckdbTarget> {
  readonly workloads: { tproch: TprochHooks<DuckdbTarget> };
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
  workloads: { tproch: tprochHooks },
  notOffered: NOT_OFFERED,
};
