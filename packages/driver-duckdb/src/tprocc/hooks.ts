import type { TproccHooks, TproccTarget } from '@sledge/core';
import { SledgeError, type DuckdbTarget } from '@sledge/protocol';
import { StagingLoader, stagingDir } from '../engine/loader.js';
import { openTproccAdmin } from './admin.js';

/**
 * Why DuckDB runs no TPROC-C transactions, and what to do instead. Measured
 * by tprocc/concurrency.test.ts: two transactions that update the same
 * DISTRICT row (new-order's d_next_o_id) or WAREHOUSE row (payment's w_ytd)
 * at once, and the second fails with "Conflict on update" instead of
 * waiting.
 */
export const NO_TRANSACTIONS =
  "DuckDB runs no TPROC-C transactions: its optimistic concurrency control aborts the second of two transactions that update the same row (\"TransactionContext Error: Conflict on update\") instead of making it wait, and TPROC-C's virtual users update the same DISTRICT and WAREHOUSE rows all the time, so NOPM would count conflicts, not throughput. DuckDB builds, checks and deletes a TPROC-C schema for CH-benCHmark's analytic streams (workload chbench with tprocc.vus 0); run TPROC-C's transactions on SQLite or a server engine.";

/**
 * TPROC-C on DuckDB, for CH-benCHmark's analytic streams: the schema is
 * built through DuckDB's bulk path (loaders stage comma-separated files,
 * finishSchema COPYs them on the admin's thread, then keys and ANALYZE),
 * checked and deleted; transactions are not offered (NO_TRANSACTIONS).
 */
export const tproccHooks: TproccHooks<TproccTarget<DuckdbTarget>> = {
  bulkFormat: () => 'csv',
  openAdmin: async (target, log) => openTproccAdmin(target, log),
  openLoader: async (target) => new StagingLoader(stagingDir(target)),
  openVu: async () => {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', NO_TRANSACTIONS, { field: 'target.engine' });
  },
  noTransactions: NO_TRANSACTIONS,
};
