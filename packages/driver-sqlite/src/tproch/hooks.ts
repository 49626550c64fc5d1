import type { TprochHooks } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { openTprochAdmin } from './admin.js';
import { openTprochLoader } from './loader.js';
import { openTprochStream } from './stream.js';

/**
 * TPROC-H on SQLite: the file is the database; tuple loads through prepared
 * INSERTs; each stream runs its queries in a child process of its own, which
 * is how a query is cancelled or timed out (better-sqlite3 has no interrupt).
 */
export const tprochHooks: TprochHooks<SqliteTarget> = {
  // SQLite runs each query on one thread: no degree of parallelism.
  features: { dop: false },
  bulkFormat: () => 'tuples',
  openAdmin: async (target, log) => openTprochAdmin(target, log),
  openLoader: async (target, log) => openTprochLoader(target, log),
  openStream: async (target, opts) => openTprochStream(target, opts),
};
