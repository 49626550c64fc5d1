import type { AshSample } from '@sledge/protocol';
import { sqlTextId, truncateSql, vuFromName } from './text.js';
import { db2AgentState } from './waitclass.js';

/** One row of `agents` (packages/sql/db2/metrics/ash.sql), lower-case keys. */
export interface Db2AgentRow {
  application_handle: number;
  event_state: string;
  event_type: string | null;
  event_object: string | null;
  event_object_name: string | null;
  application_name: string | null;
  client_applname: string | null;
  session_auth_id: string | null;
  executable_id: string | null;
  stmt_text: string | null;
  hld_application_handle: number | null;
  lock_object_type: string | null;
  /** The application is the target user's; false only with scope 'server'. */
  in_scope?: boolean;
}

const str = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
};
const int = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** A driver row (lower-case column -> value; ibm_db returns BIGINT as a string) as a typed row. */
export function readAgentRow(r: Readonly<Record<string, unknown>>): Db2AgentRow {
  return {
    application_handle: int(r['application_handle']) ?? 0,
    event_state: str(r['event_state']) ?? '',
    event_type: str(r['event_type']),
    event_object: str(r['event_object']),
    event_object_name: str(r['event_object_name']),
    application_name: str(r['application_name']),
    client_applname: str(r['client_applname']),
    session_auth_id: str(r['session_auth_id']),
    executable_id: str(r['executable_id']),
    stmt_text: str(r['stmt_text']),
    hld_application_handle: int(r['hld_application_handle']),
    lock_object_type: str(r['lock_object_type']),
    ...(int(r['in_scope']) === null ? {} : { in_scope: int(r['in_scope']) !== 0 }),
  };
}

/** One agent -> one sample, or null when it waits for its client. `vuTag`: the job's session tag (only applications named with it are its VUs). */
export function agentToSample(r: Db2AgentRow, ts: number, vuTag?: string): AshSample | null {
  const state = db2AgentState(r.event_state, r.event_type, r.event_object);
  if (!state) return null;
  const s: AshSample = { ts, session: String(r.application_handle), waitClass: state.waitClass, event: state.event };
  if (r.event_object) s.engineClass = r.event_object;
  // A lock wait names what it waits for: ACQUIRE LOCK (ROW), (TABLE) ...
  if (state.waitClass === 'Lock' && r.lock_object_type) s.event = `${state.event} (${r.lock_object_type})`;
  const vu = vuFromName(r.client_applname, vuTag);
  if (vu !== undefined) s.vu = vu;
  if (r.session_auth_id) s.user = r.session_auth_id;
  const program = r.client_applname ?? r.application_name;
  if (program) s.program = program;
  if (r.stmt_text) {
    s.sql = truncateSql(r.stmt_text);
    s.sqlId = r.executable_id ?? sqlTextId(r.stmt_text);
  } else if (r.executable_id) {
    s.sqlId = r.executable_id;
  }
  if (r.hld_application_handle !== null && r.hld_application_handle !== r.application_handle) s.blocking = String(r.hld_application_handle);
  if (r.in_scope === false) s.outside = true;
  return s;
}

/** Rows -> samples, one per application (an agent waiting on several locks comes back once per lock). */
export function agentsToSamples(rows: readonly Db2AgentRow[], ts: number, vuTag?: string): AshSample[] {
  const out: AshSample[] = [];
  const seen = new Set<number>();
  for (const r of rows) {
    if (seen.has(r.application_handle)) continue;
    seen.add(r.application_handle);
    const s = agentToSample(r, ts, vuTag);
    if (s) out.push(s);
  }
  return out;
}
