import { describe, expect, it } from 'vitest';
import { sqlFiles, sqlText } from '@sledge/sql';
import { TPROCC_COLUMNS, TPROCC_ROUTINES, TproccVuInputs, parseNamedSql, tproccTarget } from '@sledge/core';
import { DEFAULT_MIX, OracleTarget, TPROCC_TABLES, TX_TYPES, validate } from '@sledge/protocol';
import { oracleVars, tableStatements } from './admin.js';
import { plsqlCall } from './params.js';
import { cleanStatement, fillPlaceholders, identifier, placeholders, quotablePassword } from '../engine/sql-text.js';
import { ORACLE_SQL, oracleSql, type SqlFile } from './sqlfiles.js';

const lib = oracleSql;
const target = tproccTarget(validate(OracleTarget, { engine: 'oracle' }));
const VARS = { ...oracleVars(target), partitions: 4, table: 'stock' };

describe('packages/sql/oracle/tprocc files', () => {
  it('has the shared file set', () => {
    // datagen_load.* are flat-file load templates, an extra listed in packages/sql/README.md.
    const files = sqlFiles('oracle', 'tprocc').map((f) => f.name).filter((f) => f.endsWith('.sql') && !f.startsWith('datagen_load.')).sort();
    expect(files).toEqual(['admin.sql', 'check.sql', 'counters.sql', 'drop.sql', 'indexes.sql', 'procedures.sql', 'tables.sql']);
  });

  for (const file of Object.keys(ORACLE_SQL) as SqlFile[]) {
    it(`${file}.sql defines every statement the driver runs`, () => {
      const parsed = parseNamedSql(sqlText('oracle', 'tprocc', `${file}.sql`));
      for (const name of ORACLE_SQL[file]) {
        expect(Object.keys(parsed), `${file}.sql:${name}`).toContain(name);
        const sql = lib.get(file, name, VARS);
        expect(placeholders(sql)).toEqual([]);
        expect(sql).not.toMatch(/^\s*\/\s*$/m);
        expect(sql).not.toMatch(/^\s*--/);
        // SQL statements go without ';', PL/SQL units keep their final END;
        if (/^(BEGIN|DECLARE|CREATE OR REPLACE (PROCEDURE|PACKAGE|FUNCTION))\b/.test(sql)) expect(sql).toMatch(/END( \w+)?;$/);
        else expect(sql).not.toMatch(/;\s*$/);
      }
    });
  }

  it('uses only the placeholders the driver fills', () => {
    const used = new Set<string>();
    for (const file of Object.keys(ORACLE_SQL) as SqlFile[]) for (const sql of Object.values(lib.file(file))) for (const p of placeholders(sql)) used.add(p);
    expect([...used].sort()).toEqual(['default_tablespace', 'order_line_tablespace', 'partitions', 'password', 'table', 'temp_tablespace', 'user']);
  });

  it('fills placeholders (SQL*Plus syntax, period terminator)', () => {
    const t = { ...target, user: 'bench', password: 'Pw#1 x', defaultTablespace: 'TPCCTAB', tempTablespace: 'TEMP2', orderLineTablespace: 'OLTAB' };
    const v = oracleVars(t);
    expect(lib.get('admin', 'create_user', v)).toBe('CREATE USER bench IDENTIFIED BY "Pw#1 x"\n  DEFAULT TABLESPACE TPCCTAB\n  TEMPORARY TABLESPACE TEMP2');
    expect(lib.get('admin', 'quota_order_line', v)).toBe('ALTER USER bench QUOTA UNLIMITED ON OLTAB');
    expect(lib.get('drop', 'drop_user', v)).toBe('DROP USER bench CASCADE');
    expect(lib.get('drop', 'kill_sessions', v)).toContain("username = UPPER('bench')");
    expect(lib.get('tables', 'order_line_partitioned', { ...v, partitions: 8 })).toContain('PARTITION BY HASH (ol_w_id) PARTITIONS 8 STORE IN (OLTAB)');
    expect(lib.get('tables', 'order_line', v)).toMatch(/TABLESPACE OLTAB$/);
    expect(fillPlaceholders('&user..warehouse', { user: 'tpcc' })).toBe('tpcc.warehouse');
    expect(() => lib.get('admin', 'create_user')).toThrow(/&user/);
  });

  it('validates what it splices into DDL', () => {
    expect(identifier('USERS', 'tprocc.schema.defaultTablespace')).toBe('USERS');
    expect(() => identifier('1USERS', 'tprocc.schema.defaultTablespace')).toThrow(/tprocc.schema.defaultTablespace/);
    expect(() => identifier('a b', 'target.user')).toThrow(/target.user/);
    expect(() => quotablePassword('pa"ss', 'target.password')).toThrow(/double quotes/);
    expect(() => oracleVars({ ...target, user: 'tp cc' })).toThrow(/target.user/);
  });

  it('cleans SQL*Plus terminators', () => {
    expect(cleanStatement('-- c\nSELECT 1 FROM dual;\n\n-- next\n')).toBe('SELECT 1 FROM dual');
    expect(cleanStatement('BEGIN\n  NULL;\nEND;\n/\n\n-- x')).toBe('BEGIN\n  NULL;\nEND;');
  });

  it('partitions ORDER_LINE only when asked and W >= 200', () => {
    expect(tableStatements(target, 1000)).toMatchObject({ partitions: 0 });
    expect(tableStatements(target, 1000).names).toContain('order_line');
    const p = tableStatements({ ...target, partition: true }, 1000);
    expect(p.partitions).toBe(10);
    expect(p.names).toContain('order_line_partitioned');
    expect(p.names).not.toContain('order_line');
    expect(tableStatements({ ...target, partition: true }, 150).partitions).toBe(0);
    expect(p.names).toHaveLength(9);
  });

  it('creates every generated column of every table', () => {
    const tables = lib.file('tables');
    for (const t of TPROCC_TABLES) {
      expect(tables[t]).toMatch(new RegExp(`^CREATE TABLE ${t} \\(`));
      for (const c of TPROCC_COLUMNS[t]) expect(tables[t], `${t}.${c}`).toMatch(new RegExp(`^\\s+${c}\\s`, 'm'));
    }
    const columnsOf = (ddl: string) => ddl.slice(0, ddl.indexOf('\n)'));
    expect(columnsOf(tables['order_line_partitioned']!)).toBe(columnsOf(tables['order_line']!));
  });

  it('defines the five routines as procedures', () => {
    const procs = lib.file('procedures');
    for (const r of TPROCC_ROUTINES) expect(procs[r]).toMatch(new RegExp(`^CREATE OR REPLACE PROCEDURE ${r} \\(`));
    expect(procs['sledge_types']).toContain('TYPE num_tab IS TABLE OF NUMBER INDEX BY BINARY_INTEGER');
  });

  it('declares exactly the parameters the driver binds, in order and direction', () => {
    const procs = lib.file('procedures');
    const wl = new TproccVuInputs(5, { warehouses: 3, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
    for (const tx of TX_TYPES) {
      const call = plsqlCall(tx, wl.input(tx));
      const body = procs[call.procedure]!;
      const header = body.slice(0, body.search(/^\) IS$/m));
      const declared = [...header.matchAll(/^\s+p_(\w+)\s+(IN|OUT)\s+([\w.]+),?\s*$/gm)].map((m) => ({ name: m[1]!, dir: m[2]!.toLowerCase(), type: m[3]! }));
      expect(declared.map((d) => d.name), call.procedure).toEqual(call.binds.map((b) => b.name));
      expect(declared.map((d) => d.dir), call.procedure).toEqual(call.binds.map((b) => b.dir));
      for (const [i, b] of call.binds.entries()) {
        if (b.kind === 'number[]') expect(declared[i]!.type).toBe('sledge_types.num_tab');
        if (b.kind === 'string') expect(declared[i]!.type).toBe('VARCHAR2');
      }
      expect(call.sql).toBe(`BEGIN ${call.procedure}(${call.binds.map((b) => `:${b.name}`).join(', ')}); END;`);
    }
  });
});
