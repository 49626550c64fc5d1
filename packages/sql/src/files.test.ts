import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENGINES, type EngineId } from '@sledge/protocol';
import { SQL_ALIASES, sqlEngines, sqlFile, sqlFileLayers, sqlFiles, sqlSet, sqlText } from './index.js';

/** The package directory, found independently of the module under test. */
const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const onDisk = (engine: string, workload: string) => readdirSync(join(PKG, engine, workload)).sort();

describe('sqlFile', () => {
  it("returns the engine's own file, an absolute path inside the package", () => {
    const p = sqlFile('postgresql', 'tprocc', 'tables.sql');
    expect(p).toBe(join(PKG, 'postgresql', 'tprocc', 'tables.sql'));
    expect(statSync(p).isFile()).toBe(true);
    expect(sqlFile('sqlite', 'tprocc', 'procedures.sql')).toBe(join(PKG, 'sqlite', 'tprocc', 'procedures.sql'));
    expect(sqlFile('oracle', 'metrics', 'ash.sql')).toBe(join(PKG, 'oracle', 'metrics', 'ash.sql'));
  });

  it("MariaDB reads its own file where it has one, else MySQL's; MySQL never reads MariaDB's", () => {
    expect(sqlEngines('mariadb')).toEqual(['mariadb', 'mysql']);
    expect(sqlEngines('mysql')).toEqual(['mysql']);
    // counters.sql and datagen_load.sql are MariaDB's own; tables.sql and procedures.sql are MySQL's.
    expect(sqlFile('mariadb', 'tprocc', 'counters.sql')).toBe(join(PKG, 'mariadb', 'tprocc', 'counters.sql'));
    expect(sqlFile('mariadb', 'tprocc', 'tables.sql')).toBe(join(PKG, 'mysql', 'tprocc', 'tables.sql'));
    expect(sqlFile('mariadb', 'tprocc', 'procedures.sql')).toBe(join(PKG, 'mysql', 'tprocc', 'procedures.sql'));
    expect(sqlFile('mysql', 'tprocc', 'counters.sql')).toBe(join(PKG, 'mysql', 'tprocc', 'counters.sql'));
    expect(sqlFile('mariadb', 'metrics', 'ash.sql')).toBe(join(PKG, 'mariadb', 'metrics', 'ash.sql'));
    expect(sqlFileLayers('mariadb', 'metrics', 'ash.sql')).toEqual([join(PKG, 'mariadb', 'metrics', 'ash.sql'), join(PKG, 'mysql', 'metrics', 'ash.sql')]);
    expect(sqlFileLayers('mysql', 'metrics', 'ash.sql')).toEqual([join(PKG, 'mysql', 'metrics', 'ash.sql')]);
  });

  it("resolves CH-benCHmark's folder (chbench) for every engine, MariaDB's through MySQL's", () => {
    // DuckDB too: its analytic streams run on a TPROC-C schema it builds (no transactions).
    // DuckDB's queries are PostgreSQL's file (an alias: aliases.ts).
    const whose = (e: EngineId) => (e === 'mariadb' ? 'mysql' : e === 'duckdb' ? 'postgresql' : e);
    for (const e of ENGINES) expect(sqlFile(e, 'chbench', 'queries.sql')).toBe(join(PKG, whose(e), 'chbench', 'queries.sql'));
    expect(sqlFiles('mariadb', 'chbench').map((f) => [f.name, f.from])).toEqual(onDisk('mysql', 'chbench').map((n) => [n, 'mysql']));
  });

  it("resolves the engine-level session statements (engine/session.sql) for every engine, MariaDB's through MySQL's", () => {
    for (const e of ENGINES) expect(sqlFile(e, 'engine', 'session.sql')).toBe(join(PKG, e === 'mariadb' ? 'mysql' : e, 'engine', 'session.sql'));
  });

  it('no engine other than MariaDB falls back', () => {
    for (const e of ENGINES) if (e !== 'mariadb') expect(sqlEngines(e), e).toEqual([e]);
    // SQLite has no metrics folder and borrows from nobody.
    expect(() => sqlFile('sqlite', 'metrics', 'ash.sql')).toThrow(/ash\.sql not found for sqlite/);
  });

  it("reads a file declared as another engine's (an alias) from that engine's folder, and only that file", () => {
    expect(SQL_ALIASES).toContainEqual({ engine: 'duckdb', workload: 'chbench', name: 'queries.sql', is: 'postgresql' });
    const pg = join(PKG, 'postgresql', 'chbench', 'queries.sql');
    expect(sqlFile('duckdb', 'chbench', 'queries.sql')).toBe(pg);
    expect(sqlFileLayers('duckdb', 'chbench', 'queries.sql')).toEqual([pg]);
    expect(sqlText('duckdb', 'chbench', 'queries.sql')).toBe(readFileSync(pg, 'utf8'));
    expect(sqlSet('duckdb', 'chbench').statement('queries.sql', 'q1')).toBe(sqlSet('postgresql', 'chbench').statement('queries.sql', 'q1'));
    // The engine's other files stay its own; the engine it names does not read back.
    expect(sqlFile('duckdb', 'chbench', 'tables.sql')).toBe(join(PKG, 'duckdb', 'chbench', 'tables.sql'));
    expect(sqlEngines('duckdb')).toEqual(['duckdb']);
    expect(sqlFiles('duckdb', 'chbench').map((f) => [f.name, f.from, f.path])).toEqual(
      [...onDisk('duckdb', 'chbench'), 'queries.sql'].sort().map((n) => (n === 'queries.sql' ? [n, 'postgresql', pg] : [n, 'duckdb', join(PKG, 'duckdb', 'chbench', n)])),
    );
  });

  it("every alias names a file the other engine has, and the aliasing engine's folder has none of that name", () => {
    for (const a of SQL_ALIASES) {
      expect(a.is, `${a.engine}/${a.workload}/${a.name}`).not.toBe(a.engine);
      expect(statSync(join(PKG, a.is, a.workload, a.name)).isFile(), `${a.is}/${a.workload}/${a.name}`).toBe(true);
      expect(onDisk(a.engine, a.workload), `${a.engine}/${a.workload}`).not.toContain(a.name);
    }
  });

  it('a missing file fails naming every folder searched, in order', () => {
    let message = '';
    try {
      sqlFile('mariadb', 'tprocc', 'no-such-file.sql');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(`no-such-file.sql not found for mariadb (tprocc) in ${join(PKG, 'mariadb', 'tprocc')}, ${join(PKG, 'mysql', 'tprocc')}`);
    expect(() => sqlFile('postgresql', 'tprocc', 'nope.sql')).toThrow(`nope.sql not found for postgresql (tprocc) in ${join(PKG, 'postgresql', 'tprocc')}`);
  });

  it('refuses names that leave the folder, and unknown engines or workloads', () => {
    for (const bad of ['../mysql/tprocc/tables.sql', 'tprocc/tables.sql', '..', '']) {
      expect(() => sqlFile('mariadb', 'tprocc', bad), bad).toThrow(/must be a plain file name/);
    }
    expect(() => sqlFile('informix' as EngineId, 'tprocc', 'tables.sql')).toThrow(/no SQL for engine "informix": engines are sqlite, postgresql/);
    expect(() => sqlFile('postgresql', 'tpcds' as 'tprocc', 'tables.sql')).toThrow(/no SQL for workload "tpcds": workloads are tprocc, tproch, chbench, script, metrics, engine$/);
  });
});

describe('sqlText', () => {
  it('is the file as on disk, and the same string on the next call', () => {
    const t = sqlText('mssql', 'tprocc', 'tables.sql');
    expect(t).toBe(readFileSync(join(PKG, 'mssql', 'tprocc', 'tables.sql'), 'utf8'));
    expect(sqlText('mssql', 'tprocc', 'tables.sql')).toBe(t);
    expect(sqlText('mariadb', 'tprocc', 'indexes.sql')).toBe(readFileSync(join(PKG, 'mysql', 'tprocc', 'indexes.sql'), 'utf8'));
  });
});

describe('sqlFiles', () => {
  it('lists an engine folder as it is on disk, sorted, each file from that engine', () => {
    for (const engine of ['postgresql', 'mysql', 'sqlite', 'db2'] as const) {
      const files = sqlFiles(engine, 'tprocc');
      expect(files.map((f) => f.name)).toEqual(onDisk(engine, 'tprocc'));
      for (const f of files) {
        expect(f.from).toBe(engine);
        expect(f.path).toBe(join(PKG, engine, 'tprocc', f.name));
      }
    }
  });

  it("MariaDB's listing is MySQL's file set with MariaDB's own files in place of MySQL's", () => {
    const maria = sqlFiles('mariadb', 'tprocc');
    const own = onDisk('mariadb', 'tprocc');
    expect(own).toContain('counters.sql');
    expect(maria.map((f) => f.name)).toEqual([...new Set([...onDisk('mysql', 'tprocc'), ...own])].sort());
    for (const f of maria) {
      const from = own.includes(f.name) ? 'mariadb' : 'mysql';
      expect([f.name, f.from, f.path]).toEqual([f.name, from, join(PKG, from, 'tprocc', f.name)]);
    }
  });

  it('is empty for a folder an engine does not have', () => {
    expect(sqlFiles('sqlite', 'metrics')).toEqual([]);
  });
});

describe('the package', () => {
  it('has one folder per engine, the engine-neutral script/ (pgbench built-in scripts) and tproch-answers/ (TPC-H answer set), each shipped in "files"', () => {
    const dirs = readdirSync(PKG).filter((d) => !d.startsWith('.') && statSync(join(PKG, d)).isDirectory() && !['src', 'dist', 'node_modules'].includes(d));
    expect(dirs.sort()).toEqual([...ENGINES, 'script', 'tproch-answers'].sort());
    const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as { files: string[] };
    for (const e of [...ENGINES, 'script', 'tproch-answers']) expect(pkg.files, e).toContain(e);
    expect(pkg.files).toContain('README.md');
  });
});
