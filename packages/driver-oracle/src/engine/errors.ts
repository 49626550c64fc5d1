import type { ErrorClass } from '@sledge/core';
import { SledgeError, type OracleTarget } from '@sledge/protocol';
import type { OracleRole } from './config.js';

interface OraErrorShape {
  code?: unknown;
  errorNum?: unknown;
  message?: unknown;
  cause?: unknown;
}
const shape = (e: unknown): OraErrorShape => (typeof e === 'object' && e !== null ? (e as OraErrorShape) : {});

export function firstMessageLine(e: unknown): string {
  const s = shape(e);
  const m = typeof s.message === 'string' && s.message ? s.message : String(e);
  return m.split('\n')[0]!.trim();
}

/**
 * The error's code: ORA-nnnnn, NJS-nnn or DPI-nnnn (node-oracledb sets
 * `code`; older messages carry it as their prefix), or a Node socket code.
 */
export function oracleCode(e: unknown): string | undefined {
  const s = shape(e);
  if (typeof s.code === 'string' && s.code) return s.code;
  const m = /^((?:ORA|NJS|DPI|PLS)-\d+)/.exec(firstMessageLine(e));
  if (m) return m[1];
  if (typeof s.errorNum === 'number' && s.errorNum > 0) return `ORA-${String(s.errorNum).padStart(5, '0')}`;
  return undefined;
}

const DEADLOCK = new Set(['ORA-00060']);
const SERIALIZATION = new Set(['ORA-08177']);
/** Resource busy (NOWAIT), WAIT timeout expired, distributed lock timeout. */
const LOCK_TIMEOUT = new Set(['ORA-00054', 'ORA-30006', 'ORA-02049']);
const CONSTRAINT = new Set(['ORA-00001', 'ORA-02290', 'ORA-02291', 'ORA-02292', 'ORA-01400']);
/** End of file on the channel, not connected, session killed, idle timeout, closed or broken connection. */
const CONNECTION = new Set([
  'ORA-03113', 'ORA-03114', 'ORA-03135', 'ORA-01012', 'ORA-00028', 'ORA-02396', 'ORA-01092', 'ORA-12537', 'ORA-12547', 'ORA-12570',
  'ORA-01033', 'ORA-01034', 'ORA-01089', 'ORA-00018', 'ORA-12516', 'ORA-12519', 'ORA-12520', 'ORA-12528',
  'NJS-003', 'NJS-500', 'NJS-501', 'NJS-521', 'DPI-1010', 'DPI-1080', 'ECONNRESET', 'EPIPE',
]);

/**
 * Classify an error a VU session threw. ORA-00060 (deadlock) and ORA-08177
 * (cannot serialize) are retryable; ORA-03113/03114, NJS-500 and NJS-003
 * (closed connection) are 'connection'.
 */
export function classifyError(e: unknown): ErrorClass {
  const code = oracleCode(e);
  const message = firstMessageLine(e);
  const out = (kind: ErrorClass['kind'], retryable: boolean): ErrorClass => ({ kind, retryable, message, ...(code ? { code } : {}) });
  if (SledgeError.is(e)) return e.code === 'SLEDGE_E_CONNECT' ? out('connection', false) : out('other', false);
  if (!code) return out('other', false);
  if (DEADLOCK.has(code)) return out('deadlock', true);
  if (SERIALIZATION.has(code)) return out('serialization', true);
  if (LOCK_TIMEOUT.has(code)) return out('lock-timeout', true);
  // ORA-01013 user requested cancel (callTimeout), DPI-1067 call timeout exceeded.
  if (code === 'ORA-01013' || code === 'DPI-1067') return out('timeout', false);
  if (CONSTRAINT.has(code)) return out('constraint', false);
  if (CONNECTION.has(code)) return out('connection', false);
  return out('other', false);
}

/** Connect-phase codes that mean: the connect string does not lead to a database. */
const UNREACHABLE = new Set([
  'ORA-12541', 'ORA-12514', 'ORA-12505', 'ORA-12170', 'ORA-12545', 'ORA-12543', 'ORA-12154', 'ORA-12528', 'ORA-12516', 'ORA-12519',
  'NJS-500', 'NJS-501', 'NJS-503', 'NJS-510', 'NJS-511', 'NJS-512', 'NJS-514', 'NJS-515', 'NJS-516', 'NJS-517', 'NJS-518', 'NJS-519',
  'NJS-521', 'NJS-530', 'ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH',
]);
const BAD_LOGIN = new Set(['ORA-01017', 'ORA-01005', 'ORA-28000', 'ORA-28001', 'ORA-01045', 'ORA-28009', 'ORA-01031', 'ORA-01004']);

export interface ConnectContext {
  target: OracleTarget;
  role: OracleRole;
}

/**
 * Turn a failed connect into a SledgeError naming the field to fix.
 * ORA-01017 -> SLEDGE_E_AUTH target.password (target.systemPassword for the
 * system user); listener/service/socket failures (ORA-12541, ORA-12514,
 * NJS-503, ECONNREFUSED ...) -> SLEDGE_E_CONNECT target.connectString.
 */
export function connectError(e: unknown, ctx: ConnectContext): SledgeError {
  if (SledgeError.is(e)) return e;
  const t = ctx.target;
  const code = oracleCode(e) ?? '';
  const msg = firstMessageLine(e);
  const who = ctx.role === 'system' ? t.systemUser : t.user;
  const pwField = ctx.role === 'system' ? 'target.systemPassword' : 'target.password';
  const userField = ctx.role === 'system' ? 'target.systemUser' : 'target.user';
  if (BAD_LOGIN.has(code)) {
    if (code === 'ORA-28000') return new SledgeError('SLEDGE_E_AUTH', `Oracle account "${who}" is locked (ORA-28000): unlock it or use another user`, { field: userField, cause: e });
    if (code === 'ORA-01045' || code === 'ORA-01031') {
      return new SledgeError('SLEDGE_E_AUTH', `Oracle user "${who}" may not log in (${code}): grant CREATE SESSION`, { field: userField, cause: e });
    }
    return new SledgeError('SLEDGE_E_AUTH', `Oracle refused the login of "${who}" (${code}): check ${userField} and ${pwField}`, { field: pwField, cause: e });
  }
  if (UNREACHABLE.has(code) || /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH/.test(String(shape(e).message ?? ''))) {
    return new SledgeError('SLEDGE_E_CONNECT', `cannot reach Oracle at "${t.connectString}" (${msg}): check target.connectString (host:port/service_name)`, {
      field: 'target.connectString',
      cause: e,
    });
  }
  return new SledgeError('SLEDGE_E_DB', `connecting to Oracle at "${t.connectString}" as "${who}" failed: ${msg}`, { field: 'target.connectString', cause: e });
}

/** Wrap a database error of an admin or loader step. */
export function dbError(e: unknown, what: string): SledgeError {
  if (SledgeError.is(e)) return e;
  return new SledgeError('SLEDGE_E_DB', `${what} failed: ${firstMessageLine(e)}`, { cause: e });
}
