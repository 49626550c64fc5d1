import type { Driver, QuerySession } from '@sledge/core';
import type { EngineId, WorkloadConfig } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';

/**
 * The engine's settings and statement-counter statements
 * (packages/sql/<engine>/engine/settings.sql): which of them an engine has is
 * its capability (SQLite and DuckDB have no statement_counters). Undefined
 * when the engine has no such file.
 */
export function settingsStatements(engine: EngineId): Readonly<Record<string, string>> | undefined {
  try {
    return sqlSet(engine, 'engine').statements('settings.sql');
  } catch {
    return undefined;
  }
}

/** A query session on the run's target for reading settings and counters (named sledge-<name>, no parallelism, 60 s timeout). */
export async function openReader(cfg: WorkloadConfig, driver: Driver, name: string, log: (text: string) => void): Promise<QuerySession> {
  if (!driver.openQuerySession) throw new Error(`the ${cfg.target.engine} driver opens no query session`);
  return driver.openQuerySession(cfg.target, { name, dop: 0, queryTimeoutSec: 60, log });
}

/** Run `sql` (after the untimed `before` statements) and return its rows. */
export async function rowsOf(s: QuerySession, sql: string, before: readonly string[] = []): Promise<unknown[][]> {
  const r = await s.query({ query: 0, statements: [...before.map((b) => ({ sql: b, timed: false })), { sql, timed: true }] }, { fetch: true });
  return r.data ?? [];
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
