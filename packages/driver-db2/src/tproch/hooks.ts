import type { BulkFormat, Logger, TprochAdmin, TprochHooks, TprochLoader, TprochStream, TprochStreamOptions } from '@sledge/core';
import type { Db2Target } from '@sledge/protocol';
import { preflight } from '../engine/preflight.js';
import { Db2TprochAdmin, tprochSchema } from './admin.js';
import { Db2TprochLoader } from './loader.js';
import { Db2TprochStream } from './stream.js';

/** TPROC-H on Db2: the user's schema in target.database, multi-row INSERT loads, CURRENT DEGREE per stream. */
export const tprochHooks: TprochHooks<Db2Target> = {
  // Db2's CURRENT DEGREE per stream.
  features: { dop: true },
  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: Db2Target, log: Logger): Promise<TprochAdmin> {
    preflight(t);
    tprochSchema(t);
    return new Db2TprochAdmin(t, log);
  },

  async openLoader(t: Db2Target, log: Logger): Promise<TprochLoader> {
    preflight(t);
    return await Db2TprochLoader.open(t, log);
  },

  async openStream(t: Db2Target, o: TprochStreamOptions): Promise<TprochStream> {
    preflight(t);
    return await Db2TprochStream.open(t, o);
  },
};
