import { createRequire } from 'node:module';
import type * as DuckDBApi from '@duckdb/node-api';
import { SledgeError } from '@sledge/protocol';
import type { ProbeResult } from '@sledge/core';

export type Api = typeof DuckDBApi;
export type Instance = DuckDBApi.DuckDBInstance;
export type Connection = DuckDBApi.DuckDBConnection;

export const LIBRARY = '@duckdb/node-api';
const INSTALL =
  '@duckdb/node-api loads a prebuilt DuckDB binary from its platform package (@duckdb/node-bindings-<os>-<arch>): run `pnpm install` on the machine that runs Sledge (the binary is chosen for its OS and CPU), then restart Sledge.';

const require = createRequire(import.meta.url);
let loaded: { api: Api; version: string } | undefined;

/** Load @duckdb/node-api on first use, so a missing platform binary shows up as a probe result, not an import crash. */
export function loadLibrary(): { api: Api; version: string } {
  if (loaded) return loaded;
  const api = require('@duckdb/node-api') as Api;
  const version = (require('@duckdb/node-api/package.json') as { version: string }).version;
  loaded = { api, version };
  return loaded;
}

export function probeLibrary(): ProbeResult {
  try {
    const { api, version } = loadLibrary();
    return { available: true, libraryVersion: `${version} (DuckDB ${api.version()})` };
  } catch (e) {
    return { available: false, reason: `${LIBRARY} does not load: ${e instanceof Error ? e.message : String(e)}`, install: INSTALL };
  }
}

/** The library, or SLEDGE_E_DRIVER_UNAVAILABLE with the fix. */
export function api(): Api {
  try {
    return loadLibrary().api;
  } catch (e) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `${LIBRARY} does not load. ${INSTALL}`, { cause: e });
  }
}
