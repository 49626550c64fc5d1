import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { Logger } from '@sledge/core';
import type { SqlSet } from './sqlfiles.js';

/** Longest wait for InnoDB purge after a run. */
export const PURGE_BOUND_MS = 10 * 60_000;

export async function historyLength(conn: Connection, sql: SqlSet): Promise<number | null> {
  const [rows] = await conn.query<RowDataPacket[]>(sql.statement('counters.sql', 'history_length'));
  const v = rows[0]?.n;
  return v === undefined || v === null ? null : Number(v);
}

/**
 * Let InnoDB purge catch up after a run (MariaDB target.purge): run
 * counters.sql "purge_wait" (SET GLOBAL innodb_max_purge_lag_wait = 0,
 * which returns once the history list is empty) on a second connection,
 * and stop it with KILL QUERY from the admin connection when it takes
 * longer than `boundMs`. Logs the history list length before and after.
 */
export async function purgeHistory(
  admin: Connection,
  openSide: () => Promise<Connection>,
  sql: SqlSet,
  log: Logger,
  boundMs: number = PURGE_BOUND_MS,
): Promise<{ before: number | null; after: number | null; timedOut: boolean }> {
  const before = await historyLength(admin, sql);
  const started = Date.now();
  log(`InnoDB history list length ${before ?? 'unknown'}: waiting for purge (at most ${Math.round(boundMs / 1000)} s)`);
  const side = await openSide();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    admin.query(sql.statement('counters.sql', 'kill_query'), [side.threadId]).catch((e: unknown) => {
      log(`could not stop the purge wait: ${(e as Error).message}`);
    });
  }, boundMs);
  try {
    await side.query(sql.statement('counters.sql', 'purge_wait'));
  } catch (e) {
    if (!timedOut) throw e;
  } finally {
    clearTimeout(timer);
    await side.end().catch(() => side.destroy());
  }
  const after = await historyLength(admin, sql);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  log(
    timedOut
      ? `purge wait stopped after ${secs} s; history list length ${after ?? 'unknown'}`
      : `purge caught up in ${secs} s; history list length ${after ?? 'unknown'}`,
  );
  return { before, after, timedOut };
}
