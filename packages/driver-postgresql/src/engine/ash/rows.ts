import type { AshSample } from '@sledge/protocol';
import { vuFromName } from '@sledge/core';
import { truncateSql, sqlTextId } from './sqltext.js';
import { isBackgroundSleep, pgWaitClass } from './waitclass.js';

/** One row of the `activity` or `pgsentinel_since` statement (packages/sql/postgresql/metrics/ash.sql). */
export interface PgActivityRow {
  pid: number;
  backend_type: string | null;
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
  usename: string | null;
  application_name: string | null;
  query_id: string | null;
  query: string | null;
  /** pg_stat_activity: pg_blocking_pids(pid) of a session waiting on a lock. */
  blocking_pids?: number[] | null;
  /** pgsentinel: one blocker. */
  blocking_pid?: number | null;
  /** pgsentinel: when the row was sampled (unix ms). */
  ts_ms?: number;
  /** The session belongs to the target's database and roles (or is a shared background process); false only with scope 'server'. */
  in_scope?: boolean;
}

/** What pg_stat_activity shows instead of the query of a session this login may not read. */
export const HIDDEN_QUERY = '<insufficient privilege>';

/**
 * Background processes (HammerDB's BCPU set: autovacuum, checkpointer,
 * walwriter, background writer, walsender/receiver, startup, extension
 * workers ...): everything but client backends and the parallel workers
 * that run part of a client's query.
 */
export function isBackground(backendType: string | null): boolean {
  return backendType !== null && backendType !== 'client backend' && backendType !== 'parallel worker';
}

const IDLE_IN_TRANSACTION = new Set(['idle in transaction', 'idle in transaction (aborted)']);
const RUNNING = new Set(['active', 'fastpath function call']);

/** The VU position of a session name (core vuFromName: `sledge-vu-<n>`, with the job's tag when given). */
export { vuFromName };

export interface Converted {
  samples: AshSample[];
  /** Sessions whose state this login may not read (no pg_read_all_stats): not counted. */
  hidden: number;
}

/**
 * Rows -> AshSamples. A session counts when it runs (active), sits in an
 * open transaction (idle in transaction: class Client, the database waits
 * for the client) or is a background process outside its idle loop.
 * Running with no wait event is CPU. `ts` stamps rows without their own time.
 * `vuTag`: the job's session tag (only sessions named with it are its VUs).
 */
export function convertActivity(rows: readonly PgActivityRow[], ts: number, vuTag?: string): Converted {
  const samples: AshSample[] = [];
  let hidden = 0;
  for (const r of rows) {
    if (r.state === null && r.query === HIDDEN_QUERY) {
      hidden++;
      continue;
    }
    const s = toSample(r, r.ts_ms ?? ts, vuTag);
    if (s) samples.push(s);
  }
  return { samples, hidden };
}

/** One row -> one sample, or null when the session is idle. */
export function toSample(r: PgActivityRow, ts: number, vuTag?: string): AshSample | null {
  const background = isBackground(r.backend_type);
  let waitClass;
  let event: string;
  if (r.state !== null && IDLE_IN_TRANSACTION.has(r.state)) {
    waitClass = 'Client' as const;
    event = r.wait_event ?? 'ClientRead';
  } else if ((r.state !== null && RUNNING.has(r.state)) || (r.state === null && background)) {
    const c = pgWaitClass(r.wait_event_type, r.wait_event, background);
    if (c === null) return null;
    waitClass = c;
    event = c === 'CPU' ? 'CPU' : (r.wait_event ?? r.wait_event_type ?? 'CPU');
  } else {
    // idle, 'disabled' (track_activities off) or a client backend without a state.
    return null;
  }
  const s: AshSample = { ts, session: String(r.pid), waitClass, event };
  if (r.wait_event_type) s.engineClass = r.wait_event_type;
  const vu = vuFromName(r.application_name, vuTag);
  if (vu !== undefined) s.vu = vu;
  if (r.usename) s.user = r.usename;
  // Background processes have no application_name: their backend_type says what they are.
  const program = r.application_name || (background ? r.backend_type : null);
  if (program) s.program = program;
  const query = r.query?.trim();
  if (query) {
    s.sql = truncateSql(query);
    s.sqlId = r.query_id && r.query_id !== '0' ? r.query_id : sqlTextId(query);
  } else if (r.query_id && r.query_id !== '0') {
    s.sqlId = r.query_id;
  }
  const blocker = r.blocking_pids?.[0] ?? r.blocking_pid ?? null;
  if (blocker !== null && blocker !== 0) s.blocking = String(blocker);
  if (background) s.background = true;
  if (r.in_scope === false) s.outside = true;
  if (isBackgroundSleep(r.wait_event_type, background)) s.idle = true;
  return s;
}
