import type { BulkFormat, Logger, TprochAdmin, TprochHooks, TprochLoader, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { OracleTarget } from '@sledge/protocol';
import { oracledb } from '../engine/library.js';
import { OracleTprochAdmin } from './admin.js';
import { OracleTprochLoader } from './loader.js';
import { tprochVars } from './sqlfiles.js';
import { OracleTprochStream } from './stream.js';

/** TPROC-H on Oracle: user tpch (target.user) in tablespace USERS, array DML loads, FORCE PARALLEL QUERY per stream. */
export const tprochHooks: TprochHooks<OracleTarget> = {
  // ALTER SESSION FORCE PARALLEL QUERY PARALLEL n.
  features: { dop: true },
  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: OracleTarget, log: Logger): Promise<TprochAdmin> {
    oracledb();
    tprochVars(t);
    return new OracleTprochAdmin(t, log);
  },

  async openLoader(t: OracleTarget, log: Logger): Promise<TprochLoader> {
    oracledb();
    return await OracleTprochLoader.open(t, log);
  },

  async openStream(t: OracleTarget, o: TprochStreamOptions): Promise<TprochStream> {
    oracledb();
    return await OracleTprochStream.open(t, o);
  },
};
