import type { AshSample, WaitClass } from '@sledge/protocol';
import { sledgeProgram, sqlTextId, truncateSql } from './text.js';
import { mysqlWaitClass, processlistStateClass } from './waitclass.js';

/** One row of `ps_sessions` (performance_schema). */
export interface PsSessionRow {
  thread_id: number;
  processlist_id: number;
  user: string | null;
  command: string | null;
  state: string | null;
  wait_event_id: number | null;
  wait_event: string | null;
  wait_object: string | null;
  sql_text: string | null;
  digest: string | null;
  digest_text: string | null;
  program_name: string | null;
  sledge_role: string | null;
  /** The thread is the target user's in the target database; false only with scope 'server'. */
  in_scope?: boolean;
}

/** One row of `processlist` (information_schema). */
export interface ProcesslistRow {
  processlist_id: number;
  user: string | null;
  command: string | null;
  state: string | null;
  sql_text: string | null;
  /** As PsSessionRow.in_scope. */
  in_scope?: boolean;
}

/** processlist id of a session in an InnoDB row lock wait -> its blocker (null when not known). */
export type RowLockWaits = ReadonlyMap<number, number | null>;

/** The event of an InnoDB row lock wait that performance_schema does not instrument. */
export const ROW_LOCK_EVENT = 'innodb row lock wait';

const str = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const s = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  return s === '' ? null : s;
};
const int = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

export function readPsRow(r: Readonly<Record<string, unknown>>): PsSessionRow {
  return {
    thread_id: int(r['thread_id']) ?? 0,
    processlist_id: int(r['processlist_id']) ?? 0,
    user: str(r['user']),
    command: str(r['command']),
    state: str(r['state']),
    wait_event_id: int(r['wait_event_id']),
    wait_event: str(r['wait_event']),
    wait_object: str(r['wait_object']),
    sql_text: str(r['sql_text']),
    digest: str(r['digest']),
    digest_text: str(r['digest_text']),
    program_name: str(r['program_name']),
    sledge_role: str(r['sledge_role']),
    ...scopeOf(r),
  };
}

/** in_scope as the statements return it (1/0), when they do. */
function scopeOf(r: Readonly<Record<string, unknown>>): { in_scope?: boolean } {
  const v = int(r['in_scope']);
  return v === null ? {} : { in_scope: v !== 0 };
}

export function readProcesslistRow(r: Readonly<Record<string, unknown>>): ProcesslistRow {
  return { processlist_id: int(r['processlist_id']) ?? 0, user: str(r['user']), command: str(r['command']), state: str(r['state']), sql_text: str(r['sql_text']), ...scopeOf(r) };
}

export function readRowLockWaits(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Map<number, number | null> {
  const m = new Map<number, number | null>();
  for (const r of rows) {
    const id = int(r['waiting_id']);
    if (id !== null) m.set(id, int(r['blocking_id']));
  }
  return m;
}

function withSql(s: AshSample, text: string | null, digest: string | null): void {
  const t = text?.trim();
  if (t) s.sql = truncateSql(t);
  if (digest) s.sqlId = digest;
  else if (t) s.sqlId = sqlTextId(t);
}

/** A session in a row lock wait is Lock, whatever else the sources show. */
function applyRowLock(s: AshSample, waits: RowLockWaits, id: number): void {
  if (!waits.has(id)) return;
  if (s.waitClass !== 'Lock') {
    s.waitClass = 'Lock';
    s.event = ROW_LOCK_EVENT;
  }
  const blocker = waits.get(id);
  if (blocker !== null && blocker !== undefined && blocker !== id) s.blocking = String(blocker);
}

/**
 * performance_schema rows -> samples, one per session: the innermost wait
 * in progress (highest EVENT_ID) decides the class; no wait is CPU; an
 * 'idle' wait drops the session. The digest is the SQL id (md5 of the text
 * when the statement has none). `vuTag`: the job's session tag (only
 * threads whose sledge_role carries it are its VUs).
 */
export function psToSamples(rows: readonly PsSessionRow[], waits: RowLockWaits, ts: number, vuTag?: string): AshSample[] {
  const byThread = new Map<number, PsSessionRow>();
  for (const r of rows) {
    const seen = byThread.get(r.thread_id);
    if (!seen || (r.wait_event_id ?? -1) > (seen.wait_event_id ?? -1)) byThread.set(r.thread_id, r);
  }
  const out: AshSample[] = [];
  for (const r of byThread.values()) {
    let waitClass: WaitClass | null = 'CPU';
    let event = 'CPU';
    if (r.wait_event) {
      waitClass = mysqlWaitClass(r.wait_event, r.wait_object);
      event = r.wait_event;
    }
    if (waitClass === null) continue;
    const s: AshSample = { ts, session: String(r.processlist_id), waitClass, event };
    if (r.wait_event) s.engineClass = r.wait_event.split('/').slice(0, 3).join('/');
    const who = sledgeProgram(r.program_name, r.sledge_role, vuTag);
    if (who.vu !== undefined) s.vu = who.vu;
    if (r.user) s.user = r.user;
    if (who.program) s.program = who.program;
    withSql(s, r.sql_text ?? r.digest_text, r.digest);
    applyRowLock(s, waits, r.processlist_id);
    if (r.in_scope === false) s.outside = true;
    out.push(s);
  }
  return out;
}

/**
 * information_schema.PROCESSLIST rows -> samples (performance_schema OFF):
 * the state text decides the class by heuristics; row lock waits come from
 * INNODB_TRX. There are no connection attributes here, so no VU.
 */
export function processlistToSamples(rows: readonly ProcesslistRow[], waits: RowLockWaits, ts: number): AshSample[] {
  return rows.map((r) => {
    const state = r.state?.trim() || null;
    const waitClass = processlistStateClass(state);
    const s: AshSample = { ts, session: String(r.processlist_id), waitClass, event: waitClass === 'CPU' ? 'CPU' : state! };
    if (r.command) s.engineClass = r.command;
    if (r.user) s.user = r.user;
    withSql(s, r.sql_text, null);
    applyRowLock(s, waits, r.processlist_id);
    if (r.in_scope === false) s.outside = true;
    return s;
  });
}
