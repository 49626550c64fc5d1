import { describe, expect, it } from 'vitest';
import { parseDb2Url } from './url.js';

describe('parseDb2Url', () => {
  it('reads user, password, host, port and database', () => {
    expect(parseDb2Url('db2://db2inst1:p%3Bw@db2.example:50001/TPCC')).toMatchObject({
      engine: 'db2', user: 'db2inst1', password: 'p;w', host: 'db2.example', port: 50001, database: 'TPCC', tablespace: 'USERSPACE1', partition: false,
    });
  });

  it('applies defaults and reads schema options', () => {
    expect(parseDb2Url('db2://localhost')).toMatchObject({ host: 'localhost', port: 50000, user: 'db2inst1', database: 'tpcc' });
    expect(parseDb2Url('db2://h/db?tablespace=TPCCTS&partition=true')).toMatchObject({ tablespace: 'TPCCTS', partition: true });
  });

  it('rejects other schemes and bad values', () => {
    expect(() => parseDb2Url('oracle://h/s')).toThrow(/db2:\/\//);
    expect(() => parseDb2Url('db2://h/db?partition=maybe')).toThrow(/target.partition/);
  });
});
