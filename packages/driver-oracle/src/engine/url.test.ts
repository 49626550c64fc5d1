import { describe, expect, it } from 'vitest';
import { parseOracleUrl } from './url.js';

describe('parseOracleUrl', () => {
  it('builds the thin-mode connect string and the system login', () => {
    const t = parseOracleUrl('oracle://tpcc:tp%23cc@db.example:1522/FREEPDB1?system=system&systemPassword=Man%40ger1');
    expect(t).toMatchObject({ engine: 'oracle', connectString: 'db.example:1522/FREEPDB1', user: 'tpcc', password: 'tp#cc', systemUser: 'system', systemPassword: 'Man@ger1' });
    expect(t.useAwr).toBe(false);
    expect(t.defaultTablespace).toBe('USERS');
  });

  it('keeps the default port out of the connect string when absent', () => {
    expect(parseOracleUrl('oracle://u:p@dbhost/ORCL').connectString).toBe('dbhost/ORCL');
  });

  it('reads schema and driver options', () => {
    const t = parseOracleUrl('oracle://u:p@h:1521/S?defaultTablespace=TPCCTAB&orderLineTablespace=OLTAB&tempTablespace=TEMP&partition=true&useAwr=1&checkpoint=yes');
    expect(t).toMatchObject({ defaultTablespace: 'TPCCTAB', orderLineTablespace: 'OLTAB', tempTablespace: 'TEMP', partition: true, useAwr: true, checkpoint: true });
  });

  it('rejects other schemes and incomplete URLs', () => {
    expect(() => parseOracleUrl('mssql://h/db')).toThrow(/oracle:\/\//);
    expect(() => parseOracleUrl('oracle://h')).toThrow(/service/);
    expect(() => parseOracleUrl('oracle://u:p@h/S?useAwr=perhaps')).toThrow(/target.useAwr/);
  });
});
