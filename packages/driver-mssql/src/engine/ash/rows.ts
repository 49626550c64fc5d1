import type { AshSample } from '@sledge/protocol';
import { sqlTextId, truncateSql, vuFromName } from './text.js';
import { mssqlRequestState } from './waitclass.js';

/** One row of the `requests` statement (packages/sql/mssql/metrics/ash.sql). */
export interface MssqlRequestRow {
  session_id: number;
  status: string;
  command: string | null;
  wait_type: string | null;
  wait_time: number | null;
  last_wait_type: string | null;
  wait_resource: string | null;
  blocking_session_id: number | null;
  query_hash: string | null;
  login_name: string | null;
  program_name: string | null;
  task_wait_type: string | null;
  task_blocking_session_id: number | null;
  resource_description: string | null;
  statement_text: string | null;
  /** The request is the target login's in the target database; false only with scope 'server'. */
  in_scope?: boolean;
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const int = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** A driver row (column name -> value) as a typed request row. */
export function readRequestRow(r: Readonly<Record<string, unknown>>): MssqlRequestRow {
  return {
    session_id: int(r['session_id']) ?? 0,
    status: str(r['status']) ?? '',
    command: str(r['command']),
    wait_type: str(r['wait_type']),
    wait_time: int(r['wait_time']),
    last_wait_type: str(r['last_wait_type']),
    wait_resource: str(r['wait_resource']),
    blocking_session_id: int(r['blocking_session_id']),
    query_hash: str(r['query_hash']),
    login_name: str(r['login_name']),
    program_name: str(r['program_name']),
    task_wait_type: str(r['task_wait_type']),
    task_blocking_session_id: int(r['task_blocking_session_id']),
    resource_description: str(r['resource_description']),
    statement_text: str(r['statement_text']),
    ...(r['in_scope'] === undefined || r['in_scope'] === null ? {} : { in_scope: Number(r['in_scope']) !== 0 }),
  };
}

/** A query_hash of zeros is SQL Server's "no hash" (e.g. a statement without a plan). */
const NO_HASH = /^0x0+$/i;

/** One request -> one sample, or null when it is not activity. `vuTag`: the job's session tag (only programs named with it are its VUs). */
export function requestToSample(r: MssqlRequestRow, ts: number, vuTag?: string): AshSample | null {
  const waitType = r.wait_type || r.task_wait_type || null;
  const state = mssqlRequestState(r.status, waitType, r.last_wait_type);
  if (!state) return null;
  const s: AshSample = { ts, session: String(r.session_id), waitClass: state.waitClass, event: state.event };
  // The request status (running, runnable, suspended) is SQL Server's own coarse class.
  s.engineClass = r.status.toLowerCase();
  const program = r.program_name?.trim();
  const vu = vuFromName(program, vuTag);
  if (vu !== undefined) s.vu = vu;
  if (r.login_name) s.user = r.login_name;
  if (program) s.program = program;
  const text = r.statement_text?.trim() || null;
  if (text) s.sql = truncateSql(text);
  if (r.query_hash && !NO_HASH.test(r.query_hash)) s.sqlId = r.query_hash;
  else if (text) s.sqlId = sqlTextId(text);
  const blocker = r.blocking_session_id || r.task_blocking_session_id || 0;
  if (blocker !== 0 && blocker !== r.session_id) s.blocking = String(blocker);
  if (r.in_scope === false) s.outside = true;
  return s;
}

export function requestsToSamples(rows: readonly MssqlRequestRow[], ts: number, vuTag?: string): AshSample[] {
  const out: AshSample[] = [];
  for (const r of rows) {
    const s = requestToSample(r, ts, vuTag);
    if (s) out.push(s);
  }
  return out;
}
