import type { ErrorClass } from '@sledge/core';
import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { loginFields, type Login } from './config.js';

/** SQLSTATE the new-order routine raises for an unknown item: the transaction rolled back as TPC-C specifies. */
export const ROLLBACK_SQLSTATE = 'SLRBK';

/** SQLSTATE of a PostgreSQL error (pg's DatabaseError.code), or a Node socket error code. */
export function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node >= 20 reports a failed multi-address connect as an AggregateError of socket errors.
  const inner = (e as { errors?: unknown }).errors;
  if (Array.isArray(inner)) for (const x of inner) {
    const c = errorCode(x);
    if (c) return c;
  }
  return undefined;
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) {
    if (e.message) return e.message;
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner[0] instanceof Error) return inner[0].message;
    return e.name;
  }
  return String(e);
}

const SOCKET_REASONS: Record<string, { reason: string; field: 'target.host' | 'target.port' }> = {
  ECONNREFUSED: { reason: 'connection refused', field: 'target.port' },
  ENOTFOUND: { reason: 'host not found', field: 'target.host' },
  EAI_AGAIN: { reason: 'host name lookup failed', field: 'target.host' },
  EHOSTUNREACH: { reason: 'host unreachable', field: 'target.host' },
  ENETUNREACH: { reason: 'network unreachable', field: 'target.host' },
  ETIMEDOUT: { reason: 'connection timed out', field: 'target.host' },
  ECONNRESET: { reason: 'connection reset', field: 'target.host' },
};

/**
 * Turn a failed connect into a SledgeError naming the target field to fix.
 * Messages carry user names and addresses, never passwords.
 */
export function mapConnectError(e: unknown, t: PostgresqlTarget, login: Login): SledgeError {
  const code = errorCode(e);
  const msg = errorMessage(e);
  const f = loginFields(login);
  const user = login === 'superuser' ? t.superuser : t.user;
  const database = login === 'superuser' ? t.defaultDatabase : t.database;
  const where = `${t.host}:${t.port}`;
  const cause = { cause: e };

  if (code === '28P01') {
    return new SledgeError('SLEDGE_E_AUTH', `PostgreSQL at ${where} refused the password of user "${user}": check ${f.password}`, { field: f.password, ...cause });
  }
  if (code === '28000') {
    if (/role .* does not exist/i.test(msg)) {
      return new SledgeError('SLEDGE_E_AUTH', `PostgreSQL at ${where} has no role "${user}" (${msg}): check ${f.user}`, { field: f.user, ...cause });
    }
    return new SledgeError('SLEDGE_E_AUTH', `PostgreSQL at ${where} refused user "${user}" (${msg}): check ${f.user} and ${f.password}`, { field: f.password, ...cause });
  }
  if (code === '3D000') {
    return login === 'superuser'
      ? new SledgeError('SLEDGE_E_CONNECT', `PostgreSQL at ${where} has no database "${database}": check ${f.database}`, { field: f.database, ...cause })
      : new SledgeError('SLEDGE_E_SCHEMA_MISSING', `PostgreSQL at ${where} has no database "${database}": build the schema first or check ${f.database}`, { field: f.database, ...cause });
  }
  const sock = code ? SOCKET_REASONS[code] : undefined;
  if (sock) {
    return new SledgeError('SLEDGE_E_CONNECT', `cannot reach PostgreSQL at ${where} (${sock.reason}): check target.host and target.port`, { field: sock.field, ...cause });
  }
  if (/timeout expired|connection timeout/i.test(msg)) {
    return new SledgeError('SLEDGE_E_CONNECT', `cannot reach PostgreSQL at ${where} (no answer within the connect timeout): check target.host and target.port`, { field: 'target.host', ...cause });
  }
  if (/does not support SSL/i.test(msg)) {
    return new SledgeError('SLEDGE_E_CONNECT', `PostgreSQL at ${where} does not accept TLS connections: set target.sslmode to prefer or disable`, { field: 'target.sslmode', ...cause });
  }
  if (/certificate|self[- ]signed|SSL|TLS/i.test(msg) && !code?.match(/^[0-9A-Z]{5}$/)) {
    return new SledgeError('SLEDGE_E_CONNECT', `TLS connection to PostgreSQL at ${where} failed (${msg}): check target.sslmode`, { field: 'target.sslmode', ...cause });
  }
  if (code === '57P03' || code === '53300') {
    return new SledgeError('SLEDGE_E_CONNECT', `PostgreSQL at ${where} is not accepting connections now (${msg})`, { field: 'target.host', ...cause });
  }
  if (/Connection terminated/i.test(msg)) {
    return new SledgeError('SLEDGE_E_CONNECT', `PostgreSQL at ${where} closed the connection while logging in (${msg}): check target.host and target.port`, { field: 'target.host', ...cause });
  }
  return new SledgeError('SLEDGE_E_DB', `connecting to PostgreSQL at ${where} as "${user}" failed: ${msg}`, cause);
}

/** A database error during schema work, as SLEDGE_E_DB with what was being done. */
export function dbError(what: string, e: unknown, field?: string): SledgeError {
  if (SledgeError.is(e)) return e;
  const code = errorCode(e);
  return new SledgeError('SLEDGE_E_DB', `${what} failed${code ? ` (SQLSTATE ${code})` : ''}: ${errorMessage(e)}`, {
    cause: e,
    ...(field ? { field } : {}),
  });
}

const CONNECTION_MESSAGES = /Connection terminated|is not currently accepting connections|too many connections|Client was closed|not queryable|Client has encountered a connection error|socket hang up|read ECONNRESET|write EPIPE/i;
/** admin shutdown, crash shutdown, cannot connect now, too many connections (per role: CONNECTION LIMIT), sockets. */
const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Classify an error thrown by a VU session (the Driver.classifyError hook). */
export function classifyError(e: unknown): ErrorClass {
  // A SledgeError from openVu wraps the database error: classify what caused it.
  if (SledgeError.is(e)) {
    const cause = (e as Error).cause;
    if (cause !== undefined) return { ...classifyError(cause), message: e.message };
    const kind = e.code === 'SLEDGE_E_CONNECT' || e.code === 'SLEDGE_E_AUTH' ? 'connection' : 'other';
    return { kind, retryable: false, message: e.message };
  }
  const code = errorCode(e);
  const message = errorMessage(e);
  const withCode = code === undefined ? {} : { code };
  if (code === '40P01') return { kind: 'deadlock', retryable: true, ...withCode, message };
  if (code === '40001') return { kind: 'serialization', retryable: true, ...withCode, message };
  if (code === '55P03') return { kind: 'lock-timeout', retryable: false, ...withCode, message };
  // query_canceled: statement_timeout (or a cancel request).
  if (code === '57014') return { kind: 'timeout', retryable: false, ...withCode, message };
  if ((code !== undefined && (code.startsWith('08') || CONNECTION_CODES.has(code))) || CONNECTION_MESSAGES.test(message)) {
    return { kind: 'connection', retryable: false, ...withCode, message };
  }
  if (code !== undefined && code.startsWith('23')) return { kind: 'constraint', retryable: false, ...withCode, message };
  return { kind: 'other', retryable: false, ...withCode, message };
}
