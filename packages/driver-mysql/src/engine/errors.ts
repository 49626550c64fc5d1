import type { ErrorClass } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { MyTarget } from './flavour.js';

/** Server error numbers the driver acts on. */
export const ER = {
  DBACCESS_DENIED: 1044,
  ACCESS_DENIED: 1045,
  BAD_DB: 1049,
  SERVER_SHUTDOWN: 1053,
  DUP_ENTRY: 1062,
  NO_SUCH_TABLE: 1146,
  NOT_ALLOWED_COMMAND: 1148,
  LOCK_WAIT_TIMEOUT: 1205,
  LOCK_TABLE_FULL: 1206,
  LOCK_DEADLOCK: 1213,
  NO_REFERENCED_ROW: 1452,
  ACCESS_DENIED_NO_PASSWORD: 1698,
  CONNECTION_KILLED: 1927,
  TOO_MANY_USER_CONNECTIONS: 1203,
  USER_LIMIT_REACHED: 1226,
  CON_COUNT: 1040,
  QUERY_INTERRUPTED: 1317,
  QUERY_TIMEOUT: 3024,
  STATEMENT_TIMEOUT: 1969,
  SERVER_GONE: 2006,
  SERVER_LOST: 2013,
  CLIENT_LOCAL_FILES_DISABLED: 3948,
  LOCAL_INFILE_WRONG_DIRECTORY: 3950,
  CLIENT_INTERACTION_TIMEOUT: 4031,
  MARIADB_LOAD_INFILE_CAPABILITY_DISABLED: 4166,
} as const;

/** The fields of a mysql2 error we read; anything may be missing. */
interface MyErrorShape {
  errno?: unknown;
  code?: unknown;
  sqlState?: unknown;
  message?: unknown;
  fatal?: unknown;
}

function shape(e: unknown): MyErrorShape {
  return typeof e === 'object' && e !== null ? (e as MyErrorShape) : {};
}

export function errnoOf(e: unknown): number | undefined {
  const n = shape(e).errno;
  return typeof n === 'number' ? n : undefined;
}

export function codeOf(e: unknown): string | undefined {
  const c = shape(e).code;
  return typeof c === 'string' ? c : undefined;
}

export function messageOf(e: unknown): string {
  const m = shape(e).message;
  return typeof m === 'string' ? m : String(e);
}

const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_SERVER_SHUTDOWN',
]);
const CONNECTION_ERRNOS = new Set<number>([
  ER.SERVER_GONE,
  ER.SERVER_LOST,
  ER.SERVER_SHUTDOWN,
  ER.CONNECTION_KILLED,
  ER.CLIENT_INTERACTION_TIMEOUT,
  ER.TOO_MANY_USER_CONNECTIONS,
  ER.USER_LIMIT_REACHED,
  ER.CON_COUNT,
]);

/** The session is gone: no ROLLBACK can be sent, the VU must reconnect. */
export function isConnectionError(e: unknown): boolean {
  const errno = errnoOf(e);
  if (errno !== undefined && CONNECTION_ERRNOS.has(errno)) return true;
  const code = codeOf(e);
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  return /closed state|connection lost|server has gone away/i.test(messageOf(e));
}

/**
 * Classify an error thrown by a VU session: 1213 deadlock and 1205 lock
 * wait timeout are retryable; lost connections (2013, 2006, ECONNRESET,
 * PROTOCOL_CONNECTION_LOST, "closed state", ...) are 'connection';
 * 1062/1452 are constraint violations; the rest is 'other'.
 */
export function classifyError(e: unknown): ErrorClass {
  // A SledgeError from connecting wraps the server's error: classify what caused it.
  if (e instanceof SledgeError) {
    const cause = (e as Error).cause;
    if (cause !== undefined && cause !== e) return { ...classifyError(cause), message: e.message };
    return { kind: e.code === 'SLEDGE_E_CONNECT' ? 'connection' : 'other', retryable: false, message: e.message };
  }
  const errno = errnoOf(e);
  const code = errno !== undefined ? String(errno) : codeOf(e);
  const message = messageOf(e);
  const out = (kind: ErrorClass['kind'], retryable: boolean): ErrorClass =>
    code === undefined ? { kind, retryable, message } : { kind, retryable, code, message };
  if (errno === ER.LOCK_DEADLOCK) return out('deadlock', true);
  if (errno === ER.LOCK_WAIT_TIMEOUT) return out('lock-timeout', true);
  // max_execution_time (MySQL 3024), max_statement_time (MariaDB 1969), KILL QUERY (1317).
  if (errno === ER.QUERY_TIMEOUT || errno === ER.STATEMENT_TIMEOUT || errno === ER.QUERY_INTERRUPTED) return out('timeout', false);
  if (isConnectionError(e)) return out('connection', false);
  if (errno === ER.DUP_ENTRY || errno === ER.NO_REFERENCED_ROW) return out('constraint', false);
  return out('other', false);
}

/** Did the server (or the client flags) refuse LOAD DATA LOCAL INFILE? */
export function isLocalInfileRefused(e: unknown): boolean {
  const errno = errnoOf(e);
  return (
    errno === ER.NOT_ALLOWED_COMMAND ||
    errno === ER.CLIENT_LOCAL_FILES_DISABLED ||
    errno === ER.LOCAL_INFILE_WRONG_DIRECTORY ||
    errno === ER.MARIADB_LOAD_INFILE_CAPABILITY_DISABLED
  );
}

function where(t: MyTarget): string {
  return t.socket ? `socket ${t.socket}` : `${t.host}:${t.port}`;
}

/**
 * Map an error met while connecting (or on a fresh session) to the
 * SledgeError a user can act on, or undefined when it is not one of those.
 * Messages name the user and the address, never the password.
 */
export function connectError(e: unknown, t: MyTarget, display: string): SledgeError | undefined {
  if (e instanceof SledgeError) return e;
  const errno = errnoOf(e);
  const code = codeOf(e);
  const cause = { cause: e };
  if (errno === ER.ACCESS_DENIED || errno === ER.ACCESS_DENIED_NO_PASSWORD)
    return new SledgeError(
      'SLEDGE_E_AUTH',
      `${display} at ${where(t)} refused user '${t.user}': check target.user and target.password.`,
      { field: 'target.password', ...cause },
    );
  if (errno === ER.DBACCESS_DENIED)
    return new SledgeError(
      'SLEDGE_E_AUTH',
      `${display} user '${t.user}' may not use database '${t.database}': grant it access or choose another target.database.`,
      { field: 'target.user', ...cause },
    );
  if (errno === ER.BAD_DB || errno === ER.NO_SUCH_TABLE)
    return new SledgeError(
      'SLEDGE_E_SCHEMA_MISSING',
      `${display} database '${t.database}' has no TPROC-C schema: build it first.`,
      { field: 'target.database', ...cause },
    );
  if (code === undefined) return undefined;
  if (t.socket && (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'EACCES'))
    return new SledgeError('SLEDGE_E_CONNECT', `Cannot connect to ${display} through socket ${t.socket} (${code}): check target.socket, or clear it to use host and port.`, {
      field: 'target.socket',
      ...cause,
    });
  switch (code) {
    case 'ECONNREFUSED':
      return new SledgeError('SLEDGE_E_CONNECT', `${display} refused the connection at ${t.host}:${t.port}: check target.port and that the server is running.`, {
        field: 'target.port',
        ...cause,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new SledgeError('SLEDGE_E_CONNECT', `Cannot resolve ${display} host '${t.host}': check target.host.`, { field: 'target.host', ...cause });
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new SledgeError('SLEDGE_E_CONNECT', `No answer from ${display} at ${t.host}:${t.port} within 5 s (${code}): check target.host, target.port and firewalls.`, {
        field: 'target.host',
        ...cause,
      });
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return new SledgeError('SLEDGE_E_CONNECT', `${display} at ${where(t)} does not support TLS: turn target.ssl off or enable TLS on the server.`, {
        field: 'target.ssl',
        ...cause,
      });
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return new SledgeError('SLEDGE_E_CONNECT', `The TLS certificate of ${display} at ${where(t)} is not trusted (${code}): set target.sslCa to the CA that signed it.`, {
        field: 'target.sslCa',
        ...cause,
      });
    default:
      return undefined;
  }
}
