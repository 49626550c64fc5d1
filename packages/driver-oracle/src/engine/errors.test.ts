import { describe, expect, it } from 'vitest';
import { OracleTarget, SledgeError, validate } from '@sledge/protocol';
import { classifyError, connectError, oracleCode } from './errors.js';

const target = validate(OracleTarget, { engine: 'oracle', password: 'user-secret', systemPassword: 'system-secret' });
const ora = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}`), { code, errorNum: Number(code.slice(4)) });
const njs = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}`), { code });

describe('Oracle error classification (VU errors)', () => {
  const cases: Array<[unknown, string, boolean]> = [
    [ora('ORA-00060', 'deadlock detected while waiting for resource'), 'deadlock', true],
    [ora('ORA-08177', "can't serialize access for this transaction"), 'serialization', true],
    [ora('ORA-00054', 'resource busy and acquire with NOWAIT specified or timeout expired'), 'lock-timeout', true],
    [ora('ORA-00001', 'unique constraint (TPCC.ORDERS_I1) violated'), 'constraint', false],
    [ora('ORA-03113', 'end-of-file on communication channel'), 'connection', false],
    [ora('ORA-03114', 'not connected to ORACLE'), 'connection', false],
    [njs('NJS-500', 'connection to Oracle Database was closed or broken'), 'connection', false],
    [njs('NJS-003', 'invalid or closed connection'), 'connection', false],
    [ora('ORA-20001', 'payment: no customer has that last name'), 'other', false],
    [new Error('something else'), 'other', false],
  ];
  for (const [err, kind, retryable] of cases) {
    it(`${(err as Error).message.split(':')[0]} -> ${kind}`, () => {
      const c = classifyError(err);
      expect(c.kind).toBe(kind);
      expect(c.retryable).toBe(retryable);
    });
  }

  it('reads the code from the message when the property is missing', () => {
    expect(oracleCode(new Error('ORA-00060: deadlock detected'))).toBe('ORA-00060');
    expect(oracleCode(Object.assign(new Error('x'), { errorNum: 60 }))).toBe('ORA-00060');
    expect(classifyError(new Error('ORA-00060: deadlock detected')).code).toBe('ORA-00060');
  });
});

describe('Oracle connect errors', () => {
  const check = (e: SledgeError, code: string, field: string) => {
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.message).not.toMatch(/user-secret|system-secret/);
  };

  it('ORA-01017 -> SLEDGE_E_AUTH naming the password of the role', () => {
    const e = ora('ORA-01017', 'invalid credential or not authorized; logon denied');
    check(connectError(e, { target, role: 'user' }), 'SLEDGE_E_AUTH', 'target.password');
    check(connectError(e, { target, role: 'system' }), 'SLEDGE_E_AUTH', 'target.systemPassword');
  });

  it('locked account -> SLEDGE_E_AUTH target.user', () => {
    check(connectError(ora('ORA-28000', 'The account is locked.'), { target, role: 'user' }), 'SLEDGE_E_AUTH', 'target.user');
  });

  const unreachable: Array<[string, unknown]> = [
    ['ORA-12541 no listener', ora('ORA-12541', 'Cannot connect. No listener at host 10.0.0.1 port 1521.')],
    ['ORA-12514 unknown service', ora('ORA-12514', 'Cannot connect to database. Service X is not registered with the listener')],
    ['NJS-503 refused', njs('NJS-503', 'connection to host 127.0.0.1 port 1 could not be established. (CONNECTION_ID=x)\nconnect ECONNREFUSED 127.0.0.1:1')],
    ['NJS-518 unknown service', njs('NJS-518', 'cannot connect to Oracle Database. Service "X" is not registered with the listener at host h port 1521.')],
    ['NJS-530 unresolvable host', njs('NJS-530', 'The host addresses or URLs provided by the connect string are incorrect or unresolvable in your network.')],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1521'), { code: 'ECONNREFUSED' })],
  ];
  for (const [name, err] of unreachable) {
    it(`${name} -> SLEDGE_E_CONNECT target.connectString`, () => check(connectError(err, { target, role: 'system' }), 'SLEDGE_E_CONNECT', 'target.connectString'));
  }
});
