import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { SledgeError } from '@sledge/protocol';
import type { ProbeResult } from '@sledge/core';

export type Db = BetterSqlite3.Database;
export type DbConstructor = typeof BetterSqlite3;

export const LIBRARY = 'better-sqlite3';
const INSTALL =
  'better-sqlite3 is a native module: run `pnpm rebuild better-sqlite3` (it compiles from source when no prebuilt binary downloads; needs python3, make and a C++ compiler), then restart Sledge.';

const require = createRequire(import.meta.url);
let loaded: { ctor: DbConstructor; version: string } | undefined;

/** Load better-sqlite3 on first use, so a missing native build shows up as a probe result, not an import crash. */
export function loadLibrary(): { ctor: DbConstructor; version: string } {
  if (loaded) return loaded;
  const ctor = require('better-sqlite3') as DbConstructor;
  const version = (require('better-sqlite3/package.json') as { version: string }).version;
  // The native addon loads on the first connection; an in-memory one proves it works.
  new ctor(':memory:').close();
  loaded = { ctor, version };
  return loaded;
}

export function probeLibrary(): ProbeResult {
  try {
    return { available: true, libraryVersion: loadLibrary().version };
  } catch (e) {
    return { available: false, reason: `${LIBRARY} does not load: ${e instanceof Error ? e.message : String(e)}`, install: INSTALL };
  }
}

/** The constructor, or SLEDGE_E_DRIVER_UNAVAILABLE with the fix. */
export function dbConstructor(): DbConstructor {
  try {
    return loadLibrary().ctor;
  } catch (e) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `${LIBRARY} does not load. ${INSTALL}`, { cause: e });
  }
}
