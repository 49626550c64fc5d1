import { describe, expect, it } from 'vitest';
import { sqlFiles, sqlText } from '@sledge/sql';
import { TPROCC_COLUMNS, TPROCC_ROUTINES, parseNamedSql } from '@sledge/core';
import { TPROCC_TABLES } from '@sledge/protocol';
import { cleanStatement, fillPlaceholders, identifier, placeholders } from '../engine/sql-text.js';
import { MSSQL_SQL, mssqlSql, type SqlFile } from './sqlfiles.js';
import { newOrderCall, ORDER_LINE_LIST_COLUMNS, procCall } from './params.js';
import { TproccVuInputs } from '@sledge/core';
import { DEFAULT_MIX, TX_TYPES } from '@sledge/protocol';

const lib = mssqlSql;
const read = (f: string) => sqlText('mssql', 'tprocc', f);

/** Variables the driver passes to each statement that has placeholders. */
const VARS = { database: 'tpcc', table: 'warehouse' };

describe('packages/sql/mssql/tprocc files', () => {
  it('has the shared file set', () => {
    // datagen_load.* are flat-file load templates, an extra listed in packages/sql/README.md.
    const files = sqlFiles('mssql', 'tprocc').map((f) => f.name).filter((f) => f.endsWith('.sql') && !f.startsWith('datagen_load.')).sort();
    expect(files).toEqual(['admin.sql', 'check.sql', 'counters.sql', 'drop.sql', 'indexes.sql', 'procedures.sql', 'tables.sql']);
  });

  for (const file of Object.keys(MSSQL_SQL) as SqlFile[]) {
    it(`${file}.sql defines every statement the driver runs`, () => {
      const parsed = parseNamedSql(read(`${file}.sql`));
      for (const name of MSSQL_SQL[file]) {
        expect(Object.keys(parsed), `${file}.sql:${name}`).toContain(name);
        const sql = lib.get(file, name, VARS);
        expect(sql.length).toBeGreaterThan(5);
        expect(sql).not.toMatch(/^\s*GO\s*$/im);
        expect(sql).not.toMatch(/^\s*--/);
        expect(placeholders(sql)).toEqual([]);
      }
    });
  }

  it('uses only the placeholders the driver fills', () => {
    const used = new Set<string>();
    for (const file of Object.keys(MSSQL_SQL) as SqlFile[]) for (const sql of Object.values(lib.file(file))) for (const p of placeholders(sql)) used.add(p);
    expect([...used].sort()).toEqual(['database', 'table']);
  });

  it('fills placeholders and refuses a missing one', () => {
    expect(lib.get('admin', 'create_database', { database: 'tpcc_7' })).toBe('CREATE DATABASE [tpcc_7]');
    expect(lib.get('check', 'row_count', { table: 'order_line' })).toBe('SELECT COUNT_BIG(*) AS n FROM dbo.order_line');
    const drop = lib.get('drop', 'drop_database', { database: 'bench' });
    expect(drop).toContain("DB_ID(N'bench')");
    expect(drop).toContain('DROP DATABASE [bench]');
    expect(() => lib.get('admin', 'create_database')).toThrow(/\$\(database\)/);
    expect(fillPlaceholders('$(a) $(b) $(a)', { a: 'x', b: 2 })).toBe('x 2 x');
  });

  it('accepts only plain identifiers for spliced names', () => {
    expect(identifier('tpcc', 'target.database')).toBe('tpcc');
    expect(() => identifier('tp]cc', 'target.database')).toThrow(/target.database/);
    expect(() => identifier("x'; DROP", 'target.database')).toThrow();
  });

  it('strips the sqlcmd batch separator and surrounding comments', () => {
    expect(cleanStatement('-- c\nCREATE X\nEND;\nGO\n\n-- trailing\n')).toBe('CREATE X\nEND;');
  });

  it('creates every generated column of every table', () => {
    const tables = lib.file('tables');
    for (const t of TPROCC_TABLES) {
      const ddl = tables[t]!;
      expect(ddl).toMatch(new RegExp(`CREATE TABLE dbo\\.${t} \\(`));
      for (const c of TPROCC_COLUMNS[t]) expect(ddl, `${t}.${c}`).toMatch(new RegExp(`^\\s+${c}\\s`, 'm'));
    }
  });

  it('defines the five routines as procedures', () => {
    const procs = lib.file('procedures');
    for (const r of TPROCC_ROUTINES) expect(procs[r]).toMatch(new RegExp(`^CREATE PROCEDURE dbo\\.${r}\\b`));
    expect(procs['order_line_list']).toMatch(/^CREATE TYPE dbo\.order_line_list AS TABLE/);
  });

  it('declares exactly the parameters the driver binds, in order', () => {
    const procs = lib.file('procedures');
    const wl = new TproccVuInputs(5, { warehouses: 3, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
    for (const tx of TX_TYPES) {
      const call = procCall(tx, wl.input(tx));
      const name = call.procedure.replace(/^dbo\./, '');
      const body = procs[name]!;
      const header = body.slice(0, body.search(/^AS$/m));
      const declared = [...header.matchAll(/^\s+@(\w+)\s+([a-z.]+[a-z_]*)(?:\([^)]*\))?(\s+READONLY)?(\s+OUTPUT)?,?\s*$/gim)].map((m) => ({
        name: m[1]!,
        output: Boolean(m[4]),
      }));
      expect(declared.map((d) => d.name), name).toEqual(call.params.map((p) => p.name));
      expect(declared.map((d) => d.output), name).toEqual(call.params.map((p) => Boolean(p.output)));
    }
  });

  it('declares the order line table type with the TVP columns', () => {
    const type = lib.file('procedures')['order_line_list']!;
    const cols = [...type.matchAll(/^\s+(\w+)\s+int\b/gm)].map((m) => m[1]);
    expect(cols).toEqual([...ORDER_LINE_LIST_COLUMNS]);
    const call = newOrderCall({ w_id: 1, max_w: 1, d_id: 1, c_id: 1, ol_cnt: 1, rollback: false, all_local: true, lines: [{ i_id: 9, supply_w_id: 1, quantity: 3 }] });
    expect(call.params.find((p) => p.type === 'tvp')?.tvp?.columns).toEqual(ORDER_LINE_LIST_COLUMNS);
  });
});
