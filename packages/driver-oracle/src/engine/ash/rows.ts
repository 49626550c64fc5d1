import type { AshSample } from '@sledge/protocol';
import { truncateSql, vuFromName } from './text.js';
import { oracleWaitClass } from './waitclass.js';

/** One row of `sessions` (V$SESSION) or `ash_since` (V$ACTIVE_SESSION_HISTORY), lower-case keys. */
export interface OracleSessionRow {
  sid: number;
  serial: number;
  username: string | null;
  program: string | null;
  module: string | null;
  client_identifier: string | null;
  /** 'ON CPU' | 'WAITING' */
  session_state: string;
  wait_class: string | null;
  event: string | null;
  sql_id: string | null;
  blocking_session: number | null;
  blocking_serial: number | null;
  /** 'FOREGROUND' | 'BACKGROUND' */
  session_type: string | null;
  sql_text: string | null;
  /** How long ago the server sampled the row (0 for V$SESSION). */
  age_ms: number;
  sample_id: number;
  /** The session is the target user's (or a background process); false only with scope 'server'. */
  in_scope?: boolean;
}

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
const int = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** A driver row (lower-case column -> value) as a typed row. */
export function readSessionRow(r: Readonly<Record<string, unknown>>): OracleSessionRow {
  return {
    sid: int(r['sid']) ?? 0,
    serial: int(r['serial']) ?? 0,
    username: str(r['username']),
    program: str(r['program']),
    module: str(r['module']),
    client_identifier: str(r['client_identifier']),
    session_state: str(r['session_state']) ?? 'ON CPU',
    wait_class: str(r['wait_class']),
    event: str(r['event']),
    sql_id: str(r['sql_id']),
    blocking_session: int(r['blocking_session']),
    blocking_serial: int(r['blocking_serial']),
    session_type: str(r['session_type']),
    sql_text: str(r['sql_text']),
    age_ms: int(r['age_ms']) ?? 0,
    sample_id: int(r['sample_id']) ?? 0,
    ...(int(r['in_scope']) === null ? {} : { in_scope: int(r['in_scope']) !== 0 }),
  };
}

/** Oracle names a session by SID and serial#: the SID alone is reused by later sessions. */
export const sessionKey = (sid: number, serial: number | null): string => (serial === null ? String(sid) : `${sid},${serial}`);

/**
 * One row -> one sample (null for an idle wait). `now` is the client time of
 * the query; a row sampled `age_ms` earlier by the server gets now - age_ms.
 * Sledge's sessions carry sledge-vu-<n>~<tag> as client identifier and
 * module; with the job's `vuTag` only those carrying it are its VUs.
 */
export function sessionToSample(r: OracleSessionRow, now: number, vuTag?: string): AshSample | null {
  const waitClass = oracleWaitClass(r.session_state, r.wait_class);
  if (waitClass === null) return null;
  const onCpu = waitClass === 'CPU';
  const s: AshSample = { ts: now - Math.max(0, r.age_ms), session: sessionKey(r.sid, r.serial), waitClass, event: onCpu ? 'CPU' : (r.event ?? r.wait_class ?? 'unknown') };
  if (!onCpu && r.wait_class) s.engineClass = r.wait_class;
  const sledgeName = [r.client_identifier, r.module].find((n) => n?.startsWith('sledge-')) ?? null;
  const vu = vuFromName(sledgeName, vuTag);
  if (vu !== undefined) s.vu = vu;
  if (r.username) s.user = r.username;
  const program = sledgeName ?? r.module ?? r.program;
  if (program) s.program = program;
  if (r.sql_id) s.sqlId = r.sql_id;
  if (r.sql_text) s.sql = truncateSql(r.sql_text);
  if (r.blocking_session !== null) s.blocking = sessionKey(r.blocking_session, r.blocking_serial);
  if (r.session_type?.toUpperCase() === 'BACKGROUND') s.background = true;
  if (r.in_scope === false) s.outside = true;
  return s;
}

export function sessionsToSamples(rows: readonly OracleSessionRow[], now: number, vuTag?: string): AshSample[] {
  const out: AshSample[] = [];
  for (const r of rows) {
    const s = sessionToSample(r, now, vuTag);
    if (s) out.push(s);
  }
  return out;
}
