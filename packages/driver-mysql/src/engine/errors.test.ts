import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { connectionOptions } from './connect.js';
import { classifyError, connectError, isConnectionError, isLocalInfileRefused } from './errors.js';
import { mariadbTarget } from '../testing/live.js';

type Fields = { errno?: number; code?: string; message?: string };
const err = (fields: Fields) => Object.assign(new Error(fields.message ?? 'x'), fields);

describe('classifyError', () => {
  it.each([
    [{ errno: 1213, code: 'ER_LOCK_DEADLOCK' }, 'deadlock', true, '1213'],
    [{ errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' }, 'lock-timeout', true, '1205'],
    [{ errno: 2013 }, 'connection', false, '2013'],
    [{ errno: 2006 }, 'connection', false, '2006'],
    [{ errno: 1927 }, 'connection', false, '1927'],
    [{ code: 'ECONNRESET' }, 'connection', false, 'ECONNRESET'],
    [{ code: 'PROTOCOL_CONNECTION_LOST' }, 'connection', false, 'PROTOCOL_CONNECTION_LOST'],
    [{ message: "Can't add new command when connection is in closed state" }, 'connection', false, undefined],
    [{ errno: 1062, code: 'ER_DUP_ENTRY' }, 'constraint', false, '1062'],
    [{ errno: 1452 }, 'constraint', false, '1452'],
    [{ errno: 1064, code: 'ER_PARSE_ERROR' }, 'other', false, '1064'],
    [{ errno: 1644, message: 'payment: customer not found' }, 'other', false, '1644'],
  ] as Array<[Fields, string, boolean, string | undefined]>)('%o -> %s', (fields, kind, retryable, code) => {
    const c = classifyError(err(fields));
    expect(c.kind).toBe(kind);
    expect(c.retryable).toBe(retryable);
    expect(c.code).toBe(code);
    expect(c.message).toBe(fields.message ?? 'x');
  });

  it('handles things that are not errors', () => {
    expect(classifyError('boom')).toEqual({ kind: 'other', retryable: false, message: 'boom' });
    expect(isConnectionError(null)).toBe(false);
  });
});

describe('connectError', () => {
  const t = mariadbTarget('sledge_mytest_x', { password: 'secret-pw', host: 'db.example', port: 3307 });

  it('maps access denied to SLEDGE_E_AUTH on target.password without the password', () => {
    const e = connectError(err({ errno: 1045, code: 'ER_ACCESS_DENIED_ERROR', message: "Access denied for user 'root'" }), t, 'MariaDB')!;
    expect([e.code, e.field]).toEqual(['SLEDGE_E_AUTH', 'target.password']);
    expect(e.message).not.toContain('secret-pw');
    expect(connectError(err({ errno: 1044 }), t, 'MariaDB')!.field).toBe('target.user');
  });

  it.each([
    ['ECONNREFUSED', 'target.port'],
    ['ENOTFOUND', 'target.host'],
    ['EAI_AGAIN', 'target.host'],
    ['ETIMEDOUT', 'target.host'],
    ['EHOSTUNREACH', 'target.host'],
  ])('%s -> SLEDGE_E_CONNECT on %s', (code, field) => {
    const e = connectError(err({ code }), t, 'MariaDB')!;
    expect([e.code, e.field]).toEqual(['SLEDGE_E_CONNECT', field]);
    expect(e.message).toContain(field);
    expect(e.message).not.toContain('secret-pw');
  });

  it('blames target.socket when a socket is used', () => {
    for (const code of ['ENOENT', 'ECONNREFUSED', 'EACCES']) {
      const e = connectError(err({ code }), { ...t, socket: '/run/mysqld/mysqld.sock' }, 'MariaDB')!;
      expect([e.code, e.field]).toEqual(['SLEDGE_E_CONNECT', 'target.socket']);
    }
  });

  it('a missing database is SLEDGE_E_SCHEMA_MISSING; TLS trouble names the TLS fields; others are not mapped', () => {
    expect(connectError(err({ errno: 1049 }), t, 'MariaDB')!.code).toBe('SLEDGE_E_SCHEMA_MISSING');
    expect(connectError(err({ code: 'HANDSHAKE_NO_SSL_SUPPORT' }), t, 'MariaDB')!.field).toBe('target.ssl');
    expect(connectError(err({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), t, 'MariaDB')!.field).toBe('target.sslCa');
    expect(connectError(err({ errno: 1064 }), t, 'MariaDB')).toBeUndefined();
    const s = new SledgeError('SLEDGE_E_VALIDATION', 'v');
    expect(connectError(s, t, 'MariaDB')).toBe(s);
  });
});

describe('LOAD DATA refusal', () => {
  it('recognises the refusals of MySQL 5.7/8 and MariaDB, nothing else', () => {
    for (const errno of [1148, 3948, 3950, 4166]) expect(isLocalInfileRefused(err({ errno }))).toBe(true);
    for (const errno of [1062, 1045, 2013]) expect(isLocalInfileRefused(err({ errno }))).toBe(false);
    expect(isLocalInfileRefused(err({ code: 'ECONNRESET' }))).toBe(false);
  });
});

describe('connectionOptions', () => {
  const t = mariadbTarget('sledge_mytest_x');

  it('5 s connect timeout, no multipleStatements, TCP or socket', () => {
    const o = connectionOptions(t, { useDatabase: true, role: 'vu2' });
    expect(o).toMatchObject({ host: '127.0.0.1', port: 3306, database: 'sledge_mytest_x', connectTimeout: 5000, multipleStatements: false });
    expect(o.socketPath).toBeUndefined();
    const s = connectionOptions({ ...t, socket: '/tmp/mariadb.sock' }, { useDatabase: false, role: 'admin' });
    expect(s.socketPath).toBe('/tmp/mariadb.sock');
    expect(s.host).toBeUndefined();
    expect(s.database).toBeUndefined();
  });

  it('drops LOCAL_FILES only when asked, and passes the stream factory', () => {
    expect(connectionOptions(t, { useDatabase: true, role: 'l' }).flags).toBeUndefined();
    expect(connectionOptions(t, { useDatabase: true, role: 'l', localFiles: false }).flags).toEqual(['-LOCAL_FILES']);
  });

  it('TLS: verified, with the CA file when given; an unreadable file names its field', () => {
    expect(connectionOptions({ ...t, ssl: true }, { useDatabase: true, role: 'x' }).ssl).toEqual({ rejectUnauthorized: true });
    try {
      connectionOptions({ ...t, ssl: true, sslCa: '/nonexistent/ca.pem' }, { useDatabase: true, role: 'x' });
      expect.unreachable();
    } catch (e) {
      expect(SledgeError.is(e) && [e.code, e.field]).toEqual(['SLEDGE_E_VALIDATION', 'target.sslCa']);
    }
  });
});
