import type { ErrorClass } from '@sledge/core';
import { SledgeError, type Db2Target } from '@sledge/protocol';

interface Db2ErrorShape {
  sqlcode?: unknown;
  sqlstate?: unknown;
  state?: unknown;
  message?: unknown;
}
const shape = (e: unknown): Db2ErrorShape => (typeof e === 'object' && e !== null ? (e as Db2ErrorShape) : {});

export function messageOf(e: unknown): string {
  const s = shape(e);
  return typeof s.message === 'string' && s.message ? s.message : String(e);
}

export function firstMessageLine(e: unknown): string {
  return messageOf(e).split('\n')[0]!.trim();
}

/** SQLCODE (negative for errors): the error's sqlcode, else the SQLnnnnN message id. */
export function sqlCode(e: unknown): number | undefined {
  const s = shape(e);
  if (typeof s.sqlcode === 'number' && s.sqlcode !== 0) return s.sqlcode;
  const m = /SQL(\d{4,5})[NCW]/.exec(messageOf(e));
  return m ? -Number(m[1]) : undefined;
}

export function sqlState(e: unknown): string | undefined {
  const s = shape(e);
  if (typeof s.sqlstate === 'string' && s.sqlstate) return s.sqlstate;
  if (typeof s.state === 'string' && s.state) return s.state;
  const m = /SQLSTATE=(\w{5})/.exec(messageOf(e));
  return m ? m[1] : undefined;
}

/** Reason code of SQL0911N/SQL0913N/SQL30082N: 'Reason code "2"' or 'reason "24"'. */
export function reasonCode(e: unknown): number | undefined {
  const m = /reason(?: code)?\s*"?(\d+)"?/i.exec(messageOf(e));
  return m ? Number(m[1]) : undefined;
}

/** Communication error, client reroute, not connected, connection closed by ibm_db. */
const CONNECTION_CODES = new Set([-30081, -30108, -30080, -1224, -900, -1776, -30040, -1032, -1035]);

/**
 * Classify an error a VU session threw (ibm_db DB2Error). SQL0911N rolled
 * the transaction back (reason 2 deadlock, 68 lock timeout): retryable, as
 * is SQL0913N; SQL30081N / SQL30108N and ibm_db's "Connection not open"
 * (-30081) are 'connection'.
 */
export function classifyError(e: unknown): ErrorClass {
  const code = sqlCode(e);
  const state = sqlState(e);
  const message = firstMessageLine(e);
  const out = (kind: ErrorClass['kind'], retryable: boolean): ErrorClass => ({
    kind,
    retryable,
    message,
    ...(code !== undefined ? { code: `SQL${Math.abs(code)}N` } : state ? { code: state } : {}),
  });
  if (SledgeError.is(e)) return e.code === 'SLEDGE_E_CONNECT' ? out('connection', false) : out('other', false);
  if (code === -911 || code === -913) return out(reasonCode(e) === 2 ? 'deadlock' : 'lock-timeout', true);
  // SQL0952N: processing cancelled (query timeout / interrupt).
  if (code === -952) return out('timeout', false);
  // SQL4725N: the activity was cancelled (WLM_CANCEL_ACTIVITY, a query session's cancel()).
  if (code === -4725) return out('timeout', false);
  if (code === -803 || code === -530 || code === -531 || code === -532 || code === -407 || code === -545) return out('constraint', false);
  if (code !== undefined && CONNECTION_CODES.has(code)) return out('connection', false);
  if (state?.startsWith('08')) return out('connection', false);
  return out('other', false);
}

/** The database named in the connection does not exist (remote: SQL30061N, local: SQL1013N). */
export function isMissingDatabase(e: unknown): boolean {
  const code = sqlCode(e);
  return code === -30061 || code === -1013 || sqlState(e) === '08004';
}

/**
 * Turn a failed connect into a SledgeError naming the field to fix.
 * SQL30082N (security processing failed) -> SLEDGE_E_AUTH target.password;
 * SQL30081N (communication error) -> SLEDGE_E_CONNECT target.port when the
 * connection was refused, else target.host; a missing database ->
 * SLEDGE_E_CONNECT target.database.
 */
export function connectError(e: unknown, t: Db2Target): SledgeError {
  if (SledgeError.is(e)) return e;
  const code = sqlCode(e);
  const msg = firstMessageLine(e);
  const where = `${t.host}:${t.port}`;
  if (code === -30082) {
    const reason = reasonCode(e);
    const field = reason === 19 || reason === 20 ? 'target.user' : 'target.password';
    return new SledgeError('SLEDGE_E_AUTH', `Db2 at ${where} refused the credentials of "${t.user}" (SQL30082N reason ${reason ?? '?'}): check target.user and target.password`, { field, cause: e });
  }
  if (isMissingDatabase(e)) {
    return new SledgeError('SLEDGE_E_CONNECT', `Db2 at ${where} has no database "${t.database}": create it first (db2 create database ${t.database}) or fix target.database`, {
      field: 'target.database',
      cause: e,
    });
  }
  if (code === -30081 || code === -1336 || code === -30080) {
    // Protocol specific error code "111" is ECONNREFUSED: the host answered, nothing listens on the port.
    const refused = /"(111|10061|61)"/.test(messageOf(e)) || /ECONNREFUSED/.test(messageOf(e));
    return new SledgeError('SLEDGE_E_CONNECT', `cannot reach Db2 at ${where} (${msg}): check target.host and target.port`, { field: refused ? 'target.port' : 'target.host', cause: e });
  }
  return new SledgeError('SLEDGE_E_DB', `connecting to Db2 at ${where} failed: ${msg}`, { field: 'target.host', cause: e });
}

export function dbError(e: unknown, what: string): SledgeError {
  if (SledgeError.is(e)) return e;
  return new SledgeError('SLEDGE_E_DB', `${what} failed: ${firstMessageLine(e)}`, { cause: e });
}
