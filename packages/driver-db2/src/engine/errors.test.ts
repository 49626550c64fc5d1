import { describe, expect, it } from 'vitest';
import { Db2Target, SledgeError, validate } from '@sledge/protocol';
import { classifyError, connectError, isMissingDatabase, reasonCode, sqlCode } from './errors.js';

const target = validate(Db2Target, { engine: 'db2', host: 'db2host', port: 50000, password: 'db2-secret' });
/** The shape ibm_db rejects with: message from the CLI driver, sqlcode, sqlstate. */
const db2err = (sqlcode: number, sqlstate: string, message: string) => Object.assign(new Error(message), { sqlcode, sqlstate });

describe('Db2 error classification (VU errors)', () => {
  const cases: Array<[string, unknown, string, boolean]> = [
    ['SQL0911N reason 2 (deadlock)', db2err(-911, '40001', '[IBM][CLI Driver][DB2/LINUXX8664] SQL0911N  The current transaction has been rolled back because of a deadlock or timeout.  Reason code "2".  SQLSTATE=40001'), 'deadlock', true],
    ['SQL0911N reason 68 (lock timeout)', db2err(-911, '40001', '[IBM][CLI Driver][DB2/LINUXX8664] SQL0911N  The current transaction has been rolled back because of a deadlock or timeout.  Reason code "68".  SQLSTATE=40001'), 'lock-timeout', true],
    ['SQL0913N reason 68', db2err(-913, '57033', 'SQL0913N  Unsuccessful execution caused by deadlock or timeout.  Reason code "68".  SQLSTATE=57033'), 'lock-timeout', true],
    ['SQL0803N duplicate', db2err(-803, '23505', 'SQL0803N  One or more values in the INSERT statement ... are not valid because the primary key ... SQLSTATE=23505'), 'constraint', false],
    ['SQL30081N communication error', db2err(-30081, '08001', 'SQL30081N  A communication error has been detected. Communication protocol being used: "TCP/IP".  Location where the error was detected: "10.0.0.5".  Communication function detecting the error: "recv".  Protocol specific error code(s): "104", "*", "0".  SQLSTATE=08001'), 'connection', false],
    ['SQL30108N client reroute', db2err(-30108, '08506', 'SQL30108N  A connection failed in an automatic client reroute environment. The transaction was rolled back.  SQLSTATE=08506'), 'connection', false],
    ["ibm_db's closed connection", { message: 'Connection not open.', sqlstate: '08001', sqlcode: -30081 }, 'connection', false],
    ['user error 75001', db2err(-438, '75001', 'SQL0438N  Application raised error or warning with diagnostic text: "payment: no customer has that last name".  SQLSTATE=75001'), 'other', false],
  ];
  for (const [name, err, kind, retryable] of cases) {
    it(name, () => {
      const c = classifyError(err);
      expect(c.kind).toBe(kind);
      expect(c.retryable).toBe(retryable);
    });
  }

  it('reads SQLCODE and reason from the message when properties are missing', () => {
    const e = new Error('SQL0911N  The current transaction has been rolled back because of a deadlock or timeout.  Reason code "2".  SQLSTATE=40001');
    expect(sqlCode(e)).toBe(-911);
    expect(reasonCode(e)).toBe(2);
    expect(classifyError(e)).toMatchObject({ kind: 'deadlock', retryable: true, code: 'SQL911N' });
  });
});

describe('Db2 connect errors', () => {
  const check = (e: SledgeError, code: string, field: string) => {
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.message).not.toContain('db2-secret');
  };

  it('SQL30082N reason 24 -> SLEDGE_E_AUTH target.password', () => {
    const e = db2err(-30082, '08001', '[IBM][CLI Driver] SQL30082N  Security processing failed with reason "24" ("USERNAME AND/OR PASSWORD INVALID").  SQLSTATE=08001');
    check(connectError(e, target), 'SLEDGE_E_AUTH', 'target.password');
    expect(classifyError(e).kind).toBe('connection');
  });

  it('SQL30081N refused (111) -> SLEDGE_E_CONNECT target.port', () => {
    const e = db2err(-30081, '08001', '[IBM][CLI Driver] SQL30081N  A communication error has been detected. Communication protocol being used: "TCP/IP".  Communication API being used: "SOCKETS".  Location where the error was detected: "127.0.0.1".  Communication function detecting the error: "connect".  Protocol specific error code(s): "111", "*", "*".  SQLSTATE=08001');
    check(connectError(e, target), 'SLEDGE_E_CONNECT', 'target.port');
  });

  it('SQL30081N timeout -> SLEDGE_E_CONNECT target.host', () => {
    const e = db2err(-30081, '08001', 'SQL30081N  A communication error has been detected. Communication function detecting the error: "selectForConnectTimeout".  Protocol specific error code(s): "0", "*", "*".  SQLSTATE=08001');
    check(connectError(e, target), 'SLEDGE_E_CONNECT', 'target.host');
  });

  it('missing database -> SLEDGE_E_CONNECT target.database', () => {
    const e = db2err(-30061, '08004', 'SQL30061N  The database alias or database name "NOSUCHDB" was not found at the remote node.  SQLSTATE=08004');
    expect(isMissingDatabase(e)).toBe(true);
    check(connectError(e, target), 'SLEDGE_E_CONNECT', 'target.database');
  });
});
