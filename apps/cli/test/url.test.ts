import { describe, expect, it } from 'vitest';
import { ENGINES, ENGINE_URL } from '@sledge/protocol';
import { parseUrl } from '../src/args.js';

describe('--url by the engine registry (ENGINE_URL), not by engine names in the CLI', () => {
  it('splits host URLs, keeps Oracle Easy Connect whole, takes SQLite paths as files', () => {
    expect(parseUrl('sqlite', 'sqlite:./x.db')).toEqual({ file: './x.db' });
    expect(parseUrl('duckdb', 'duckdb:./x.duckdb')).toEqual({ file: './x.duckdb' });
    expect(parseUrl('duckdb', 'duckdb:///tmp/x.duckdb')).toEqual({ file: '/tmp/x.duckdb' });
    expect(parseUrl('sqlite', '/tmp/y.db')).toEqual({ file: '/tmp/y.db' });
    expect(parseUrl('postgresql', 'postgres://u:p%40w@h:5433/db?ssl_mode=require')).toEqual({ host: 'h', port: 5433, user: 'u', password: 'p@w', database: 'db', sslMode: 'require' });
    expect(parseUrl('oracle', 'oracle://u:p@h:1521/FREEPDB1')).toEqual({ connectString: 'h:1521/FREEPDB1', user: 'u', password: 'p' });
  });
  it('names an example of the engine own URL form when the text is not a URL', () => {
    // File engines (SQLite, DuckDB) take any text as a path.
    for (const e of ENGINES.filter((x) => ENGINE_URL[x].form !== 'file')) {
      expect(() => parseUrl(e, 'not a url')).toThrow(/expected e\.g\. [a-z0-9]+:\/\/user:password@host:\d+\/\w+/);
    }
  });
});
