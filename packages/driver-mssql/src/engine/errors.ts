import type { ErrorClass } from '@sledge/core';
import { SledgeError, type MssqlTarget } from '@sledge/protocol';

/** The parts of tedious' ConnectionError / RequestError (and Node socket errors) we read. */
interface TdsErrorShape {
  name?: unknown;
  code?: unknown;
  number?: unknown;
  class?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  /** Set by our connect(): the SQL Server error number of the login failure, when the server sent one. */
  loginNumber?: unknown;
}

const shape = (e: unknown): TdsErrorShape => (typeof e === 'object' && e !== null ? (e as TdsErrorShape) : {});

/** Every `code` on the error, its `cause` chain and AggregateError members (tedious nests socket errors). */
export function errorCodes(e: unknown, depth = 0): string[] {
  if (depth > 6) return [];
  const s = shape(e);
  const out: string[] = [];
  if (typeof s.code === 'string') out.push(s.code);
  if (s.cause !== undefined) out.push(...errorCodes(s.cause, depth + 1));
  if (Array.isArray(s.errors)) for (const x of s.errors) out.push(...errorCodes(x, depth + 1));
  return out;
}

/** Every error name in the same tree (Azure identity errors are recognised by name). */
function errorNames(e: unknown, depth = 0): string[] {
  if (depth > 6) return [];
  const s = shape(e);
  const out: string[] = typeof s.name === 'string' ? [s.name] : [];
  if (s.cause !== undefined) out.push(...errorNames(s.cause, depth + 1));
  if (Array.isArray(s.errors)) for (const x of s.errors) out.push(...errorNames(x, depth + 1));
  return out;
}

/** The SQL Server error number (RequestError.number, or the login failure number we attached). */
export function serverErrorNumber(e: unknown): number | undefined {
  const s = shape(e);
  if (typeof s.number === 'number') return s.number;
  if (typeof s.loginNumber === 'number') return s.loginNumber;
  return undefined;
}

export function firstMessageLine(e: unknown): string {
  const s = shape(e);
  const m = typeof s.message === 'string' && s.message ? s.message : String(e);
  return m.split('\n')[0]!.trim();
}

const DEADLOCK = new Set([1205]);
const LOCK_TIMEOUT = new Set([1222]);
/** Snapshot isolation update conflicts. */
const SERIALIZATION = new Set([3960, 3961]);
/** Unique key, duplicate index key, foreign key / check, NULL into NOT NULL. */
const CONSTRAINT = new Set([2627, 2601, 547, 515]);
/** Codes of a dead or closing connection. */
const CONNECTION_CODES = new Set(['ECLOSE', 'ESOCKET', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ENOTCONN']);

/**
 * Classify an error a VU session threw (tedious RequestError/ConnectionError).
 * Deadlock victims (1205), lock timeouts (1222) and snapshot conflicts
 * (3960/3961) are retryable; a closed or broken connection is 'connection'.
 */
export function classifyError(e: unknown): ErrorClass {
  const message = firstMessageLine(e);
  const num = serverErrorNumber(e);
  const codes = errorCodes(e);
  const s = shape(e);
  const code = num !== undefined ? String(num) : codes[0];
  const out = (kind: ErrorClass['kind'], retryable: boolean): ErrorClass => ({ kind, retryable, message, ...(code !== undefined ? { code } : {}) });
  if (SledgeError.is(e)) return e.code === 'SLEDGE_E_CONNECT' ? out('connection', false) : out('other', false);
  if (num !== undefined && DEADLOCK.has(num)) return out('deadlock', true);
  if (num !== undefined && LOCK_TIMEOUT.has(num)) return out('lock-timeout', true);
  if (num !== undefined && SERIALIZATION.has(num)) return out('serialization', true);
  if (num !== undefined && CONSTRAINT.has(num)) return out('constraint', false);
  // tedious's requestTimeout, and a request ended by an attention (a query session's cancel()).
  if (codes.includes('ETIMEOUT') || codes.includes('ECANCEL')) return out('timeout', false);
  if (codes.some((c) => CONNECTION_CODES.has(c))) return out('connection', false);
  // A request on a closed connection: "Requests can only be made in the LoggedIn state, not the Final state".
  if (codes.includes('EINVALIDSTATE') && /\bFinal\b/.test(message)) return out('connection', false);
  // Severity 20 and above terminates the connection.
  if (typeof s.class === 'number' && s.class >= 20) return out('connection', false);
  return out('other', false);
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface ConnectContext {
  target: MssqlTarget;
  /** The database this connection asked for. */
  database: string;
}

/**
 * Turn a failed connect into a SledgeError naming the target field to fix.
 * Login failed (18456) -> SLEDGE_E_AUTH target.password; cannot open the
 * database (4060) -> SLEDGE_E_SCHEMA_MISSING target.database; refused or
 * unreachable sockets -> SLEDGE_E_CONNECT target.port / target.host; TLS
 * trust failures -> SLEDGE_E_CONNECT target.trustServerCertificate.
 * Messages never include the password.
 */
export function connectError(e: unknown, ctx: ConnectContext): SledgeError {
  if (SledgeError.is(e)) return e;
  const { target: t } = ctx;
  const codes = errorCodes(e);
  const names = errorNames(e);
  const num = serverErrorNumber(e);
  const msg = firstMessageLine(e);
  const where = `${t.host}:${t.port}`;
  const err = (code: ConstructorParameters<typeof SledgeError>[0], message: string, field: string) =>
    new SledgeError(code, message, { field, cause: e });

  if (codes.includes('ELOGIN')) {
    if (num === 4060 || /cannot open database/i.test(msg)) {
      return err('SLEDGE_E_SCHEMA_MISSING', `SQL Server at ${where} has no database "${ctx.database}" the login can open: build the schema first (${msg})`, 'target.database');
    }
    if (num === 18470) return err('SLEDGE_E_AUTH', `SQL Server login "${t.user}" is disabled (${msg})`, 'target.user');
    return err(
      'SLEDGE_E_AUTH',
      `SQL Server at ${where} refused the login for user "${t.user}"${num !== undefined ? ` (error ${num})` : ''}: check target.user and target.password`,
      'target.password',
    );
  }
  if (codes.includes('EFEDAUTH') || names.some((n) => n === 'AuthenticationError' || n === 'CredentialUnavailableError' || n === 'AggregateAuthenticationError')) {
    return err('SLEDGE_E_AUTH', `Azure AD refused the credentials of "${t.user}": check target.user, target.password, target.azureClientId and target.azureTenantId (${msg})`, 'target.password');
  }
  if (codes.some((c) => TLS_CODES.has(c))) {
    return err('SLEDGE_E_CONNECT', `SQL Server at ${where} presented a certificate Node does not trust (${msg}): set target.trustServerCertificate, or install a trusted certificate`, 'target.trustServerCertificate');
  }
  if (codes.includes('EENCRYPT')) {
    return err('SLEDGE_E_CONNECT', `SQL Server at ${where} requires encryption: set target.encrypt`, 'target.encrypt');
  }
  if (codes.includes('ECONNREFUSED')) {
    return err('SLEDGE_E_CONNECT', `nothing accepts connections at ${where}: check target.host and target.port, and that SQL Server listens on TCP`, 'target.port');
  }
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN') || codes.includes('EINSTLOOKUP')) {
    return err('SLEDGE_E_CONNECT', `the host name "${t.host}" does not resolve: check target.host`, 'target.host');
  }
  if (codes.some((c) => ['ETIMEOUT', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ESOCKET', 'ECONNRESET'].includes(c))) {
    return err('SLEDGE_E_CONNECT', `cannot reach SQL Server at ${where} (${msg}): check target.host and target.port`, 'target.host');
  }
  return err('SLEDGE_E_DB', `connecting to SQL Server at ${where} failed: ${msg}`, 'target.host');
}

/** Wrap a database error of an admin or loader step. */
export function dbError(e: unknown, what: string): SledgeError {
  if (SledgeError.is(e)) return e;
  const num = serverErrorNumber(e);
  return new SledgeError('SLEDGE_E_DB', `${what} failed: ${firstMessageLine(e)}${num !== undefined ? ` (SQL Server error ${num})` : ''}`, { cause: e });
}
