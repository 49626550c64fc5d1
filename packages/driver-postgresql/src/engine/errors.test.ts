import { describe, expect, it } from 'vitest';
import { DatabaseError } from 'pg';
import { SledgeError} from '@sledge/protocol';
import type { PostgresqlTarget } from '@sledge/protocol';
import { classifyError, mapConnectError, ROLLBACK_SQLSTATE } from './errors.js';

function pgError(code: string, message = `error ${code}`): DatabaseError {
  const e = new DatabaseError(message, message.length, 'error');
  e.code = code;
  return e;
}
function sockError(code: string, message = `connect ${code} 127.0.0.1:5999`): Error {
  return Object.assign(new Error(message), { code });
}

const t: PostgresqlTarget = {
  engine: 'postgresql', host: '127.0.0.1', port: 5999, user: 'tpcc', password: 'secret-tpc-pw', database: 'tpcc', superuser: 'postgres',
  superuserPassword: 'secret-su-pw', defaultDatabase: 'postgres', sslmode: 'prefer', vacuum: false, prepared: true, noStoredProcs: false,
};

describe('classifyError', () => {
  const table: [string, unknown, string, boolean][] = [
    ['deadlock', pgError('40P01'), 'deadlock', true],
    ['serialization failure', pgError('40001'), 'serialization', true],
    ['lock timeout', pgError('55P03'), 'lock-timeout', false],
    ['connection failure 08006', pgError('08006'), 'connection', false],
    ['connection does not exist 08003', pgError('08003'), 'connection', false],
    ['admin shutdown 57P01', pgError('57P01'), 'connection', false],
    ['socket reset', sockError('ECONNRESET', 'read ECONNRESET'), 'connection', false],
    ['connection terminated', new Error('Connection terminated unexpectedly'), 'connection', false],
    ['closed client', new Error('Client was closed and is not queryable'), 'connection', false],
    ['broken client', new Error('Client has encountered a connection error and is not queryable'), 'connection', false],
    ['unique violation', pgError('23505'), 'constraint', false],
    ['not null violation', pgError('23502'), 'constraint', false],
    ['division by zero', pgError('22012'), 'other', false],
    ['no data found', pgError('P0002'), 'other', false],
    ['new-order rollback outside run()', pgError(ROLLBACK_SQLSTATE), 'other', false],
    ['a string', 'boom', 'other', false],
    ['SledgeError wrapping a refused connection', new SledgeError('SLEDGE_E_CONNECT', 'cannot reach', { cause: sockError('ECONNREFUSED') }), 'connection', false],
    ['SledgeError without cause', new SledgeError('SLEDGE_E_CONNECT', 'cannot reach'), 'connection', false],
  ];
  for (const [name, e, kind, retryable] of table) {
    it(`${name} -> ${kind}`, () => {
      const c = classifyError(e);
      expect(c.kind).toBe(kind);
      expect(c.retryable).toBe(retryable);
      expect(typeof c.message).toBe('string');
    });
  }
  it('keeps the SQLSTATE', () => {
    expect(classifyError(pgError('40P01')).code).toBe('40P01');
  });
});

describe('mapConnectError', () => {
  const cases: [string, unknown, 'user' | 'superuser', string, string | undefined, RegExp][] = [
    ['refused port', sockError('ECONNREFUSED'), 'user', 'SLEDGE_E_CONNECT', 'target.port',
      /^cannot reach PostgreSQL at 127\.0\.0\.1:5999 \(connection refused\): check target\.host and target\.port$/],
    ['unknown host', sockError('ENOTFOUND', 'getaddrinfo ENOTFOUND nohost'), 'user', 'SLEDGE_E_CONNECT', 'target.host', /\(host not found\)/],
    ['unreachable host', sockError('EHOSTUNREACH'), 'user', 'SLEDGE_E_CONNECT', 'target.host', /\(host unreachable\)/],
    ['TCP timeout', sockError('ETIMEDOUT'), 'user', 'SLEDGE_E_CONNECT', 'target.host', /\(connection timed out\)/],
    ['connect timeout', new Error('timeout expired'), 'user', 'SLEDGE_E_CONNECT', 'target.host', /connect timeout/],
    ['multi-address refusal', Object.assign(new AggregateError([sockError('ECONNREFUSED'), sockError('ECONNREFUSED')], ''), {}), 'user', 'SLEDGE_E_CONNECT', 'target.port', /connection refused/],
    ['wrong TPC password', pgError('28P01', 'password authentication failed for user "tpcc"'), 'user', 'SLEDGE_E_AUTH', 'target.password', /check target\.password/],
    ['wrong superuser password', pgError('28P01'), 'superuser', 'SLEDGE_E_AUTH', 'target.superuserPassword', /user "postgres".*target\.superuserPassword/],
    ['missing superuser role', pgError('28000', 'role "postgres" does not exist'), 'superuser', 'SLEDGE_E_AUTH', 'target.superuser', /no role "postgres"/],
    ['no hba entry', pgError('28000', 'no pg_hba.conf entry for host'), 'user', 'SLEDGE_E_AUTH', 'target.password', /pg_hba/],
    ['missing TPC database', pgError('3D000', 'database "tpcc" does not exist'), 'user', 'SLEDGE_E_SCHEMA_MISSING', 'target.database', /build the schema/],
    ['missing default database', pgError('3D000'), 'superuser', 'SLEDGE_E_CONNECT', 'target.defaultDatabase', /target\.defaultDatabase/],
    ['TLS refused', new Error('The server does not support SSL connections'), 'user', 'SLEDGE_E_CONNECT', 'target.sslmode', /sslmode/],
    ['too many connections', pgError('53300', 'sorry, too many clients already'), 'user', 'SLEDGE_E_CONNECT', 'target.host', /too many clients/],
    ['anything else', pgError('XX000', 'internal'), 'user', 'SLEDGE_E_DB', undefined, /internal/],
  ];
  for (const [name, e, login, code, field, message] of cases) {
    it(`${name} (${login}) -> ${code} ${field ?? ''}`, () => {
      const s = mapConnectError(e, t, login);
      expect(s).toBeInstanceOf(SledgeError);
      expect(s.code).toBe(code);
      expect(s.field).toBe(field);
      expect(s.message).toMatch(message);
      expect(s.message).not.toMatch(/secret-/);
      expect(s.cause).toBe(e);
    });
  }
});
