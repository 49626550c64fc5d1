import { describe, expect, it } from 'vitest';
import { OracleTarget, validate } from '@sledge/protocol';
import { oracleConnectAttrs } from './config.js';

const t = validate(OracleTarget, { engine: 'oracle', connectString: ' db.example:1522/ORCLPDB1 ', user: 'tpcc', password: 'tpcc-pw', systemPassword: 'mgr-pw' });

describe('target -> node-oracledb thin connect attributes', () => {
  it('connects the TPROC-C user with the Easy Connect string as given', () => {
    expect(oracleConnectAttrs(t, 'user', 2)).toEqual({ user: 'tpcc', password: 'tpcc-pw', connectString: 'db.example:1522/ORCLPDB1', connectTimeout: 20 });
  });

  it('connects the system user, as SYSDBA only for SYS', () => {
    expect(oracleConnectAttrs(t, 'system', 2)).toEqual({ user: 'system', password: 'mgr-pw', connectString: 'db.example:1522/ORCLPDB1', connectTimeout: 20 });
    expect(oracleConnectAttrs({ ...t, systemUser: 'SYS' }, 'system', 2)).toMatchObject({ user: 'SYS', privilege: 2 });
  });

  it('passes a full descriptor through unchanged', () => {
    const cs = '(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=s)))';
    expect(oracleConnectAttrs({ ...t, connectString: cs }, 'user', 2).connectString).toBe(cs);
  });
});
