import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MssqlTarget, SledgeError, validate } from '@sledge/protocol';
import { classifyError, connectError, errorCodes } from './errors.js';

const { ConnectionError, RequestError } = createRequire(import.meta.url)('tedious') as typeof import('tedious');
const target = validate(MssqlTarget, { engine: 'mssql', host: 'sql1', port: 1433, password: 'hunter2-secret' });
const ctx = { target, database: 'tpcc' };

const requestError = (number: number, message: string, cls = 13) => Object.assign(new RequestError(message, 'EREQUEST'), { number, class: cls });
const sock = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.1:1433`), { code });

describe('SQL Server error classification (VU errors)', () => {
  const cases: Array<[string, unknown, string, boolean]> = [
    ['deadlock victim 1205', requestError(1205, 'Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.'), 'deadlock', true],
    ['lock timeout 1222', requestError(1222, 'Lock request time out period exceeded.'), 'lock-timeout', true],
    ['snapshot conflict 3960', requestError(3960, 'Snapshot isolation transaction aborted due to update conflict.', 16), 'serialization', true],
    ['duplicate key 2627', requestError(2627, "Violation of PRIMARY KEY constraint 'orders_i1'.", 14), 'constraint', false],
    ['closed mid-request', new RequestError('Connection closed before request completed.', 'ECLOSE'), 'connection', false],
    ['socket lost', new ConnectionError('Connection lost - read ECONNRESET', 'ESOCKET'), 'connection', false],
    ['request on a closed connection', new RequestError('Requests can only be made in the LoggedIn state, not the Final state', 'EINVALIDSTATE'), 'connection', false],
    ['fatal severity', requestError(596, 'Cannot continue the execution because the session is in the kill state.', 21), 'connection', false],
    ['plain error', requestError(8134, 'Divide by zero error encountered.', 16), 'other', false],
    ['busy connection', new RequestError('Requests can only be made in the LoggedIn state, not the SentClientRequest state', 'EINVALIDSTATE'), 'other', false],
  ];
  for (const [name, err, kind, retryable] of cases) {
    it(name, () => {
      const c = classifyError(err);
      expect(c.kind).toBe(kind);
      expect(c.retryable).toBe(retryable);
      expect(c.message.length).toBeGreaterThan(0);
    });
  }

  it('reports the SQL Server error number as the code', () => {
    expect(classifyError(requestError(1205, 'deadlocked')).code).toBe('1205');
    expect(classifyError(new RequestError('x', 'ECLOSE')).code).toBe('ECLOSE');
  });

  it('classifies a request on a closed tedious connection as a lost connection', async () => {
    const tedious = createRequire(import.meta.url)('tedious') as typeof import('tedious');
    const conn = new tedious.Connection({ server: '127.0.0.1', options: { port: 1 } });
    conn.on('error', () => undefined);
    conn.close();
    const err = await new Promise<unknown>((resolve) => conn.execSql(new tedious.Request('SELECT 1', (e) => resolve(e))));
    expect(classifyError(err).kind).toBe('connection');
  });
});

describe('SQL Server connect errors', () => {
  const expectError = (e: SledgeError, code: string, field: string) => {
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.message).not.toContain('hunter2-secret');
  };

  it('login failed (18456) -> SLEDGE_E_AUTH target.password', () => {
    const e = Object.assign(new ConnectionError("Login failed for user 'sa'.", 'ELOGIN'), { loginNumber: 18456 });
    const s = connectError(e, ctx);
    expectError(s, 'SLEDGE_E_AUTH', 'target.password');
    expect(s.message).toContain('18456');
  });

  it('login failed without a number is still SLEDGE_E_AUTH', () => {
    expectError(connectError(new ConnectionError('Login failed.', 'ELOGIN'), ctx), 'SLEDGE_E_AUTH', 'target.password');
  });

  it('cannot open database (4060) -> SLEDGE_E_SCHEMA_MISSING target.database', () => {
    const e = Object.assign(new ConnectionError('Cannot open database "tpcc" requested by the login. The login failed.', 'ELOGIN'), { loginNumber: 4060 });
    expectError(connectError(e, ctx), 'SLEDGE_E_SCHEMA_MISSING', 'target.database');
  });

  it('refused socket -> SLEDGE_E_CONNECT target.port (nested in AggregateError)', () => {
    const e = new ConnectionError('Failed to connect to sql1:1433 - Could not connect (sequence)', 'ESOCKET', { cause: new AggregateError([sock('ECONNREFUSED')], 'Could not connect (sequence)') });
    expect(errorCodes(e)).toEqual(['ESOCKET', 'ECONNREFUSED']);
    expectError(connectError(e, ctx), 'SLEDGE_E_CONNECT', 'target.port');
  });

  it('timeouts and unknown hosts -> SLEDGE_E_CONNECT target.host', () => {
    expectError(connectError(new ConnectionError('Failed to connect to sql1:1433 in 15000ms', 'ETIMEOUT'), ctx), 'SLEDGE_E_CONNECT', 'target.host');
    expectError(connectError(new ConnectionError('Failed to connect', 'ESOCKET', { cause: sock('ENOTFOUND') }), ctx), 'SLEDGE_E_CONNECT', 'target.host');
  });

  it('untrusted certificate -> SLEDGE_E_CONNECT target.trustServerCertificate', () => {
    const e = new ConnectionError('Failed to connect to sql1:1433 - self-signed certificate', 'ESOCKET', { cause: sock('DEPTH_ZERO_SELF_SIGNED_CERT') });
    expectError(connectError(e, ctx), 'SLEDGE_E_CONNECT', 'target.trustServerCertificate');
  });

  it('server requires encryption -> target.encrypt', () => {
    expectError(connectError(new ConnectionError("Server requires encryption, set 'encrypt' config option to true.", 'EENCRYPT'), ctx), 'SLEDGE_E_CONNECT', 'target.encrypt');
  });

  it('Azure AD refusal -> SLEDGE_E_AUTH', () => {
    const e = new AggregateError([new ConnectionError('Security token could not be authenticated or authorized.', 'EFEDAUTH')]);
    expectError(connectError(e, ctx), 'SLEDGE_E_AUTH', 'target.password');
  });
});
