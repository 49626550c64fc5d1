import type { TprochHooks } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import { openTprochAdmin } from './admin.js';
import { openTprochLoader } from './loader.js';
import { openTprochStream } from './stream.js';

/**
 * TPROC-H on DuckDB: the file (or ':memory:') is the database; loaders
 * stage '|'-separated files that finishSchema reads in with COPY; each
 * stream is a connection on the thread's instance of the database, its
 * queries interrupted for cancel and the statement timeout.
 */
export const tprochHooks: TprochHooks<DuckdbTarget> = {
  // DuckDB's threads setting: the database's degree of parallelism.
  features: { dop: true },
  bulkFormat: () => 'csv',
  openAdmin: async (target, log) => openTprochAdmin(target, log),
  openLoader: async (target, log) => openTprochLoader(target, log),
  openStream: async (target, opts) => openTprochStream(target, opts),
};
