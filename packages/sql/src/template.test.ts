import { describe, expect, it } from 'vitest';
import { sqlFile, sqlTemplate } from './index.js';

describe('sqlTemplate', () => {
  it('splits a SQL template at -- name: lines, documentation before the first one left out', () => {
    const { path, parts } = sqlTemplate('postgresql', 'tprocc', 'datagen_load.sql');
    expect(path).toBe(sqlFile('postgresql', 'tprocc', 'datagen_load.sql'));
    expect([...parts.keys()]).toEqual(['header', 'file', 'footer']);
    expect(parts.get('header')).toMatch(/^-- Sledge TPROC-C flat files for PostgreSQL/);
    expect(parts.get('header')).toMatch(/\\set ON_ERROR_STOP on$/); // trailing empty lines dropped
    expect(parts.get('file')).toBe('\\copy {{table}} ({{columns}}) from {{path}} with (format csv)');
    for (const p of parts.values()) expect(p).not.toMatch(/Template of load_postgresql\.sql/);
  });

  it('splits a shell template at # name: lines', () => {
    const { parts } = sqlTemplate('mssql', 'tprocc', 'datagen_load.sh');
    expect([...parts.keys()]).toEqual(['header', 'file', 'footer']);
    for (const p of parts.values()) expect(p).not.toMatch(/\n\s*$/);
  });

  it("resolves like sqlFile: MariaDB's own template, with its extra parts", () => {
    const { path, parts } = sqlTemplate('mariadb', 'tprocc', 'datagen_load.sql');
    expect(path).toBe(sqlFile('mariadb', 'tprocc', 'datagen_load.sql'));
    expect(path).toMatch(/\/mariadb\/tprocc\/datagen_load\.sql$/);
    expect([...parts.keys()]).toEqual(expect.arrayContaining(['header', 'file', 'footer', 'column_nullable', 'set_clause', 'assignment']));
    expect(() => sqlTemplate('sqlite', 'tprocc', 'datagen_load.sql')).toThrow(/datagen_load\.sql not found for sqlite/);
  });
});
