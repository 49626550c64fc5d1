import { describe, expect, it } from 'vitest';
import { SqlCatalog, placeholderSyntax, sqlFile, sqlSet } from './index.js';

describe('sqlSet', () => {
  it('reads named statements and scripts of the resolved file', () => {
    const pg = sqlSet<'admin.sql' | 'drop.sql'>('postgresql', 'tprocc');
    expect(pg.path('admin.sql')).toBe(sqlFile('postgresql', 'tprocc', 'admin.sql'));
    expect(pg.has('admin.sql', 'server_version')).toBe(true);
    expect(pg.has('admin.sql', 'no_such_statement')).toBe(false);
    expect(pg.statement('admin.sql', 'server_version')).toMatch(/^SELECT /i);
    expect(pg.statements('admin.sql')).toBe(pg.statements('admin.sql')); // parsed once
    const drop = pg.script('drop.sql');
    expect(drop.length).toBeGreaterThan(0);
    for (const s of drop) expect(s).not.toMatch(/;\s*$/);
  });

  it('a missing statement fails naming the resolved file', () => {
    const maria = sqlSet('mariadb', 'tprocc');
    expect(() => maria.statement('admin.sql', 'no_such_statement')).toThrow(`${sqlFile('mysql', 'tprocc', 'admin.sql')} has no statement named "no_such_statement"`);
  });

  it('applies the dialect: cleaned statements, script pieces, placeholders only when values are given', () => {
    const seen: string[] = [];
    const set = sqlSet('mssql', 'tprocc', {
      clean: (s) => `[${s}]`,
      piece: (s) => (s.startsWith('--') ? '' : s.toUpperCase()),
      fill: (sql, vars, where) => {
        seen.push(where);
        return sql.replace('$(database)', String(vars['database']));
      },
    });
    expect(set.statement('admin.sql', 'server_version')).toMatch(/^\[[\s\S]*\]$/);
    expect(set.statement('admin.sql', 'create_database', { database: 'x' })).toBe('[CREATE DATABASE [x]]');
    expect(seen).toEqual(['admin.sql:create_database']);
    const plain = sqlSet('mssql', 'tprocc').statement('admin.sql', 'create_database');
    expect(plain).toContain('$(database)');
  });

  it("layers: MariaDB's own file first, then MySQL's, each with its statements", () => {
    const layers = sqlSet('mariadb', 'metrics').layers('ash.sql');
    expect(layers.map((l) => l.path)).toEqual([sqlFile('mariadb', 'metrics', 'ash.sql'), sqlFile('mysql', 'metrics', 'ash.sql')]);
    expect(Object.keys(layers[0]!.statements).length).toBeLessThan(Object.keys(layers[1]!.statements).length);
  });
});

describe('SqlCatalog', () => {
  const CATALOG = { admin: ['server_version', 'create_database'], drop: ['drop_database'] } as const;
  const { fill } = placeholderSyntax(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (n) => `$(${n})`);
  const lib = new SqlCatalog('mssql', 'tprocc', CATALOG, { clean: (s) => s.trim(), fill });

  it('gets statements by file and name with placeholders filled', () => {
    expect(lib.path('admin')).toBe(sqlFile('mssql', 'tprocc', 'admin.sql'));
    expect(lib.get('admin', 'create_database', { database: 'tpcc_7' })).toBe('CREATE DATABASE [tpcc_7]');
    expect(() => lib.get('admin', 'create_database')).toThrow('admin.sql:create_database needs the variable $(database)');
    expect(Object.keys(lib.file('admin'))).toEqual(expect.arrayContaining(['server_version', 'create_database']));
  });

  it("script runs the catalog's order by default, or the names given", () => {
    expect(lib.script('admin', undefined, { database: 'd' }).map((s) => s.name)).toEqual(['server_version', 'create_database']);
    expect(lib.script('admin', ['server_version']).map((s) => s.name)).toEqual(['server_version']);
  });
});

describe('placeholderSyntax', () => {
  const amp = placeholderSyntax(/&([A-Za-z_][A-Za-z0-9_]*)\.?/g, (n) => `&${n}`);

  it('lists names in order of first use and fills them', () => {
    expect(amp.placeholders('a &x b &y. c &x')).toEqual(['x', 'y']);
    expect(amp.fill('&user..t &n', { user: 'u', n: 3 })).toBe('u.t 3');
    expect(() => amp.fill('&user', {}, 'drop.sql:drop_user')).toThrow('drop.sql:drop_user needs the variable &user');
    expect(() => amp.fill('&user', {})).toThrow('statement needs the variable &user');
  });
});
