import { describe, expect, it } from 'vitest';
import { MSSQL_LOADER_SQL, mssqlLoaderSql } from './loader.js';
import { literal, wallClock } from './rows.js';

const TS = '2025-03-04 05:06:07';

describe('SQL Server row handling', () => {
  it('engine/loader.sql defines exactly the statements the loader sends', () => {
    expect(Object.keys(mssqlLoaderSql.file('loader'))).toEqual([...MSSQL_LOADER_SQL.loader]);
    expect(mssqlLoaderSql.get('loader', 'column_types')).toMatch(/\n WHERE c\.object_id = OBJECT_ID\(@table\)\n ORDER BY c\.column_id$/);
  });

  it('reads generated timestamps as the same wall clock', () => {
    expect(wallClock(TS).toISOString()).toBe('2025-03-04T05:06:07.000Z');
    expect(() => wallClock('yesterday')).toThrow(/timestamp/);
  });

  it('writes T-SQL literals', () => {
    expect(literal(null, 'int')).toBe('NULL');
    expect(literal(42, 'int')).toBe('42');
    expect(literal('12.50', 'decimal')).toBe('12.50');
    expect(literal("O'Brien", 'varchar')).toBe("'O''Brien'");
    expect(literal(TS, 'datetime')).toBe("'2025-03-04T05:06:07'");
    expect(() => literal('1;DROP', 'decimal')).toThrow(/not a number/);
  });
});
