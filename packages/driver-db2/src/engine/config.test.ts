import { describe, expect, it } from 'vitest';
import { Db2Target, validate } from '@sledge/protocol';
import { db2ConnectionString } from './config.js';

const t = validate(Db2Target, { engine: 'db2', host: 'db2.example', port: 50001, user: 'db2inst1', password: 'pw', database: 'TPCC' });

describe('target -> Db2 CLI connection string', () => {
  it('names database, host, port, protocol and credentials', () => {
    expect(db2ConnectionString(t)).toBe('DATABASE=TPCC;HOSTNAME=db2.example;PORT=50001;PROTOCOL=TCPIP;UID=db2inst1;PWD=pw;CONNECTTIMEOUT=15;');
  });

  it('braces values holding a semicolon', () => {
    expect(db2ConnectionString({ ...t, password: 'a;b' })).toContain('PWD={a;b};');
    expect(db2ConnectionString({ ...t, password: ' lead' })).toContain('PWD={ lead};');
  });

  it('refuses what the CLI syntax cannot carry, naming the field but not the value', () => {
    try {
      db2ConnectionString({ ...t, password: 'x}y-secret' });
      throw new Error('expected a SledgeError');
    } catch (e) {
      expect((e as { code?: string }).code).toBe('SLEDGE_E_VALIDATION');
      expect((e as { field?: string }).field).toBe('target.password');
      expect((e as Error).message).not.toContain('x}y-secret');
    }
  });
});
