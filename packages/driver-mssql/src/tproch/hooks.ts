import type { BulkFormat, Logger, TprochAdmin, TprochHooks, TprochLoader, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { preflight } from '../engine/preflight.js';
import { MssqlTprochAdmin } from './admin.js';
import { MssqlTprochLoader } from './loader.js';
import { MssqlTprochStream } from './stream.js';

/** TPROC-H on SQL Server: database tpch (target.database), TDS bulk copy loads, MAXDOP per query. */
export const tprochHooks: TprochHooks<MssqlTarget> = {
  // OPTION (MAXDOP n) on each timed query.
  features: { dop: true },
  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: MssqlTarget, log: Logger): Promise<TprochAdmin> {
    preflight(t);
    return new MssqlTprochAdmin(t, log);
  },

  async openLoader(t: MssqlTarget, log: Logger): Promise<TprochLoader> {
    preflight(t);
    return await MssqlTprochLoader.open(t, log);
  },

  async openStream(t: MssqlTarget, o: TprochStreamOptions): Promise<TprochStream> {
    preflight(t);
    return await MssqlTprochStream.open(t, o);
  },
};
