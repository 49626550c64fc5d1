import type { TprochHooks } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { PgTprochAdmin } from './admin.js';
import { PgTprochLoader } from './loader.js';
import { openPgTprochStream } from './stream.js';

/**
 * TPROC-H on PostgreSQL: database and role created as for TPROC-C, COPY
 * loads in PostgreSQL text format, keys and ANALYZE after the load, query
 * streams with their degree of parallelism and statement timeout.
 */
export const tprochHooks: TprochHooks<PostgresqlTarget> = {
  // max_parallel_workers_per_gather per stream session.
  features: { dop: true },
  bulkFormat: () => 'pg-text',
  openAdmin: (target, log) => PgTprochAdmin.open(target, log),
  openLoader: (target, log) => PgTprochLoader.open(target, log),
  openStream: (target, opts) => openPgTprochStream(target, opts),
};
