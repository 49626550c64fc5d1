import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvBatches, isPlainCsv, parseCsvLine, slices, sqlValueBatches } from './csv.js';
import { SledgeError } from '@sledge/protocol';
import { initialLoadPath, loaderClient, loaderSql, nativeLoaderUnsupported } from './loader.js';
import { MARIADB, MYSQL, type MyTarget } from './flavour.js';

describe('the loader statements', () => {
  it('engine/load.sql holds every statement the loader sends (MariaDB reads MySQL\'s file), filled and without comment lines', () => {
    const src = readFileSync(new URL('./loader.ts', import.meta.url), 'utf8');
    const names = [...new Set([...src.matchAll(/statement\('load\.sql', '([a-z_]+)'/g)].map((m) => m[1]!))].sort();
    expect(names).toEqual(['insert_rows', 'load_data', 'local_infile', 'warnings']);
    const used = ['begin', 'commit', 'rollback', ...names];
    for (const f of [MYSQL, MARIADB]) {
      const sql = loaderSql(f);
      expect(sql.path('load.sql')).toMatch(/\/mysql\/engine\/load\.sql$/);
      expect(Object.keys(sql.statements('load.sql')).sort()).toEqual([...used].sort());
      for (const n of Object.keys(sql.statements('load.sql'))) expect(sql.statements('load.sql')[n]).not.toMatch(/^\s*--/m);
    }
    expect(loaderSql(MYSQL).statement('load.sql', 'insert_rows', { table: 'item', columns: 'i_id, i_name' })).toBe('INSERT INTO item (i_id, i_name) VALUES ?');
  });
});

describe('load path selection', () => {
  it('starts with LOAD DATA LOCAL only when @@local_infile is on', () => {
    for (const v of [1, '1', 'ON', 'on']) expect(initialLoadPath(v)).toBe('load-data');
    for (const v of [0, '0', 'OFF', null, undefined, '']) expect(initialLoadPath(v)).toBe('insert');
  });
});

describe('who sends LOAD DATA', () => {
  it('takes the option first, then SLEDGE_MYLOADER, then auto; refuses anything else with a typed error', () => {
    expect(loaderClient({}, undefined)).toBe('auto');
    expect(loaderClient({}, '')).toBe('auto');
    expect(loaderClient({}, 'mysql2')).toBe('mysql2');
    expect(loaderClient({ client: 'auto' }, 'mysql2')).toBe('auto');
    expect(loaderClient({ client: 'mysql2' }, 'auto')).toBe('mysql2');
    const e = (() => {
      try {
        loaderClient({}, 'native');
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(SledgeError);
    expect((e as SledgeError).code).toBe('SLEDGE_E_VALIDATION');
    expect((e as SledgeError).message).toBe('SLEDGE_MYLOADER must be auto or mysql2, not "native"');
  });

  it('keeps mysql2 for what the connector session does not implement', () => {
    const t = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'u', password: 'p', database: 'd' } as MyTarget;
    expect(nativeLoaderUnsupported(t, {}, 'auto')).toBeUndefined();
    expect(nativeLoaderUnsupported(t, {}, 'mysql2')).toBe('mysql2 chosen');
    expect(nativeLoaderUnsupported(t, { localFiles: false }, 'auto')).toBe('LOCAL_FILES not announced');
    expect(nativeLoaderUnsupported({ ...t, ssl: true } as MyTarget, {}, 'auto')).toMatch(/^target.ssl is on/);
  });
});

describe('csv rows for the INSERT fallback', () => {
  it('reads \\N as NULL and keeps everything else as text', () => {
    expect(parseCsvLine('1,abc,\\N,2025-01-01 00:00:00,0.50')).toEqual(['1', 'abc', null, '2025-01-01 00:00:00', '0.50']);
  });

  it('batches by size, never splits a row, never yields an empty batch', () => {
    const text = ['1,a', '2,bb', '3,ccc', '4,dddd'].join('\n') + '\n';
    expect([...csvBatches(text, 1 << 20)]).toEqual([[['1', 'a'], ['2', 'bb'], ['3', 'ccc'], ['4', 'dddd']]]);
    expect([...csvBatches(text, 9)]).toEqual([[['1', 'a'], ['2', 'bb']], [['3', 'ccc']], [['4', 'dddd']]]);
    expect([...csvBatches(text, 1)].length).toBe(4);
    expect([...csvBatches('', 10)]).toEqual([]);
    expect([...csvBatches('5,e', 10)]).toEqual([[['5', 'e']]]);
  });

  it('slices LOAD DATA payloads into bounded packets', () => {
    const b = Buffer.from('abcdefghij');
    expect([...slices(b, 4)].map((x) => x.toString())).toEqual(['abcd', 'efgh', 'ij']);
    expect([...slices(Buffer.alloc(0), 4)]).toEqual([]);
  });
});

describe('INSERT row constructors built from plain CSV', () => {
  it('plain means no quote and no backslash except whole \\N fields', () => {
    expect(isPlainCsv('1,a,\\N\n\\N,\\N,2\n')).toBe(true);
    expect(isPlainCsv("1,it's\n")).toBe(false);
    expect(isPlainCsv('1,a\\b\n')).toBe(false);
    expect(isPlainCsv('1,a\\N\n')).toBe(false);
    expect(isPlainCsv('1,\\Nx\n')).toBe(false);
  });

  it('quotes every value, writes NULL for \\N, batches by size', () => {
    const text = '1,a,\\N\n2,\\N,\\N\n3,c,d\n';
    expect([...sqlValueBatches(text, 1 << 20)]).toEqual([{ sql: "('1','a',NULL),('2',NULL,NULL),('3','c','d')", rows: 3 }]);
    expect([...sqlValueBatches(text, 9)].map((b) => b.rows)).toEqual([1, 1, 1]);
  });
});
