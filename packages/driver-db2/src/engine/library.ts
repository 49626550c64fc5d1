import { createRequire } from 'node:module';
import type { ProbeResult } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/** A parameter for ibm_db: a plain value (IN) or a bind object (OUT). */
export type IbmParam =
  | string
  | number
  | null
  | { ParamType: 'OUTPUT'; DataType: 'BIGINT'; Data: number }
  | { ParamType: 'OUTPUT'; DataType: 'CHAR'; Data: string; Length: number };

/** The part of ibm_db's Database the driver uses (promise forms: no callback). */
export interface IbmDatabase {
  query(sql: string, params?: IbmParam[]): Promise<unknown>;
  beginTransaction(): Promise<unknown>;
  commitTransaction(): Promise<unknown>;
  rollbackTransaction(): Promise<unknown>;
  close(): Promise<unknown>;
  connected: boolean;
}

export interface IbmDb {
  open(connStr: string, options?: { connectTimeout?: number } | null): Promise<IbmDatabase>;
}

const require = createRequire(import.meta.url);

/**
 * What to do when ibm_db does not load. ibm_db is an optional dependency:
 * its install script downloads IBM's clidriver and builds a native binding,
 * and when that fails (offline, no clidriver) the package is present but
 * require('ibm_db') throws.
 */
export const INSTALL_IBM_DB = [
  'ibm_db (optional dependency of @sledge/driver-db2) has no working native binding. To make it load:',
  '1. Provide the IBM Data Server Driver for ODBC and CLI (clidriver): install it and `export IBM_DB_HOME=/path/to/clidriver`,',
  '   or `export IBM_DB_INSTALLER_URL=/path/to/folder` holding the clidriver tarball (e.g. linuxx64_odbc_cli.tar.gz) so the installer works offline.',
  '2. In the repository: `pnpm approve-builds` (allow ibm_db), then `pnpm rebuild ibm_db`.',
  '3. At run time: `export LD_LIBRARY_PATH=$IBM_DB_HOME/lib:$LD_LIBRARY_PATH`.',
].join('\n');

let loaded: IbmDb | undefined;
let failure: unknown;

export function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : typeof e === 'object' && e !== null && 'message' in e ? String((e as { message: unknown }).message) : String(e);
  return m.split('\n')[0]!.trim();
}

/** Load ibm_db on first use; a missing native binding becomes SLEDGE_E_DRIVER_UNAVAILABLE with the install steps. */
export function ibmDb(): IbmDb {
  if (loaded) return loaded;
  if (failure === undefined) {
    try {
      loaded = require('ibm_db') as IbmDb;
      return loaded;
    } catch (e) {
      failure = e;
    }
  }
  throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the Db2 driver is unavailable: ibm_db does not load (${firstLine(failure)}).\n${INSTALL_IBM_DB}`, { cause: failure });
}

export function probeIbmDb(): ProbeResult {
  try {
    ibmDb();
    let version: string | undefined;
    try {
      version = (require('ibm_db/package.json') as { version?: string }).version;
    } catch {
      version = undefined;
    }
    return { available: true, ...(version ? { libraryVersion: version } : {}) };
  } catch {
    // ibm_db's message ends in "Tried:" and a list of paths on the next lines: keep the sentence, say who said it.
    return { available: false, reason: `ibm_db does not load: ${firstLine(failure).replace(/\s*Tried:\s*$/, '')}`, install: INSTALL_IBM_DB };
  }
}
