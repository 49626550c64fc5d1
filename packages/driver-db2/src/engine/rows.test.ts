import { describe, expect, it } from 'vitest';
import { DB2_LOADER_SQL, db2LoaderSql } from './loader.js';
import { db2Kind, literal } from './rows.js';

const TS = '2025-03-04 05:06:07';

describe('Db2 multi-row INSERT load', () => {
  it('engine/loader.sql defines exactly the statements the loader sends', () => {
    expect(Object.keys(db2LoaderSql.file('loader'))).toEqual([...DB2_LOADER_SQL.loader]);
    expect(db2LoaderSql.get('loader', 'column_types')).toMatch(/FROM syscat\.columns\n WHERE tabschema = CURRENT SCHEMA AND tabname = UPPER\(\?\)\n ORDER BY colno$/);
  });

  it('maps syscat type names', () => {
    expect(db2Kind({ name: 'a', typeName: 'CHARACTER' })).toBe('string');
    expect(db2Kind({ name: 'a', typeName: 'DECIMAL' })).toBe('number');
    expect(db2Kind({ name: 'a', typeName: 'TIMESTAMP' })).toBe('timestamp');
    expect(() => db2Kind({ name: 'a', typeName: 'BLOB' })).toThrow(/BLOB/);
  });

  it('writes Db2 literals', () => {
    expect(literal(null, 'number')).toBe('NULL');
    expect(literal(7, 'number')).toBe('7');
    expect(literal('-10.00', 'number')).toBe('-10.00');
    expect(literal("it's", 'string')).toBe("'it''s'");
    expect(literal(TS, 'timestamp')).toBe("TIMESTAMP('2025-03-04 05:06:07')");
    expect(() => literal('1 OR 1', 'number')).toThrow(/not a number/);
  });
});
