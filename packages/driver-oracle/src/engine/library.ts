import { createRequire } from 'node:module';
import type { ProbeResult } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

/** The part of node-oracledb (6.x API, 26.x package) the driver uses. */
export interface OraResult {
  rows?: unknown[];
  outBinds?: Record<string, unknown>;
  rowsAffected?: number;
  /** Success with info, e.g. a PL/SQL unit that compiled with errors (ORA-24344). */
  warning?: { message?: string; code?: string };
}

export interface OraBind {
  dir?: number;
  type?: unknown;
  val?: unknown;
  maxSize?: number;
  maxArraySize?: number;
}

export interface OraBindDef {
  type: unknown;
  maxSize?: number;
}

export interface OraExecuteOptions {
  outFormat?: number;
  autoCommit?: boolean;
}

export interface OraConnection {
  execute(sql: string, binds?: Record<string, OraBind | string | number | null>, options?: OraExecuteOptions): Promise<OraResult>;
  executeMany(sql: string, rows: unknown[][], options: { bindDefs: OraBindDef[]; autoCommit?: boolean }): Promise<{ rowsAffected?: number }>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
  clientId?: string;
  module?: string;
  action?: string;
}

export interface OraConnectAttrs {
  user: string;
  password: string;
  connectString: string;
  privilege?: number;
  /** Seconds for the whole connect, thin mode. */
  connectTimeout?: number;
}

export interface OracleDb {
  readonly versionString: string;
  /** True while no Oracle Client library has been initialised (thin mode). */
  readonly thin: boolean;
  readonly NUMBER: unknown;
  readonly STRING: unknown;
  readonly BIND_IN: number;
  readonly BIND_OUT: number;
  readonly OUT_FORMAT_OBJECT: number;
  readonly SYSDBA: number;
  getConnection(attrs: OraConnectAttrs): Promise<OraConnection>;
}

const require = createRequire(import.meta.url);
let loaded: OracleDb | undefined;

export const INSTALL_ORACLEDB =
  'oracledb is a dependency of @sledge/driver-oracle: run `pnpm install` in the repository. Sledge uses its thin mode (pure JavaScript), so no Oracle Instant Client is needed; do not call initOracleClient().';

export function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0]!.trim();
}

/** Load node-oracledb on first use (thin mode: it needs no Oracle Client libraries). */
export function oracledb(): OracleDb {
  if (loaded) return loaded;
  try {
    loaded = require('oracledb') as OracleDb;
    return loaded;
  } catch (e) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `oracledb does not load: ${firstLine(e)}. ${INSTALL_ORACLEDB}`, { cause: e });
  }
}

export function probeOracledb(): ProbeResult {
  try {
    const o = oracledb();
    return { available: true, libraryVersion: `${o.versionString} (${o.thin ? 'thin' : 'thick'} mode)` };
  } catch (e) {
    const cause = SledgeError.is(e) && e.cause !== undefined ? e.cause : e;
    return { available: false, reason: firstLine(cause), install: INSTALL_ORACLEDB };
  }
}
