import { describe, expect, it } from 'vitest';
import { sqlFiles, sqlText } from '@sledge/sql';
import { TPROCC_COLUMNS, TPROCC_ROUTINES, TproccVuInputs, parseNamedSql, tproccTarget } from '@sledge/core';
import { DEFAULT_MIX, Db2Target, TPROCC_TABLES, TX_TYPES, validate } from '@sledge/protocol';
import { cleanStatement, identifier, placeholders } from '../engine/sql-text.js';
import { versionFromServiceLevel } from '../engine/version.js';
import { tableStatements } from './admin.js';
import { db2Call } from './params.js';
import { DB2_SQL, db2Sql, type SqlFile } from './sqlfiles.js';

const lib = db2Sql;
const target = tproccTarget(validate(Db2Target, { engine: 'db2' }));
const VARS = { tablespace: 'USERSPACE1', partition_size: 100, partition_end: 300, schema: 'DB2INST1', table: 'STOCK' };

describe('packages/sql/db2/tprocc files', () => {
  it('has the shared file set', () => {
    // datagen_load.* are flat-file load templates, an extra listed in packages/sql/README.md.
    const files = sqlFiles('db2', 'tprocc').map((f) => f.name).filter((f) => f.endsWith('.sql') && !f.startsWith('datagen_load.')).sort();
    expect(files).toEqual(['admin.sql', 'check.sql', 'counters.sql', 'drop.sql', 'indexes.sql', 'procedures.sql', 'tables.sql']);
  });

  for (const file of Object.keys(DB2_SQL) as SqlFile[]) {
    it(`${file}.sql defines every statement the driver runs`, () => {
      const parsed = parseNamedSql(sqlText('db2', 'tprocc', `${file}.sql`));
      for (const name of DB2_SQL[file]) {
        expect(Object.keys(parsed), `${file}.sql:${name}`).toContain(name);
        const sql = lib.get(file, name, VARS);
        expect(placeholders(sql)).toEqual([]);
        expect(sql).not.toMatch(/@\s*$/);
        expect(sql).not.toMatch(/;\s*$/);
        expect(sql).not.toMatch(/^\s*--/);
      }
    });
  }

  it('ends every statement with the CLP terminator, for db2 -td@', () => {
    for (const file of Object.keys(DB2_SQL) as SqlFile[]) {
      for (const [name, raw] of Object.entries(parseNamedSql(sqlText('db2', 'tprocc', `${file}.sql`)))) {
        const body = raw.split('\n').filter((l) => l.trim() && !l.trim().startsWith('--'));
        expect(body.at(-1)!.trim(), `${file}.sql:${name}`).toMatch(/@$/);
      }
    }
  });

  it('uses only the placeholders the driver fills', () => {
    const used = new Set<string>();
    for (const file of Object.keys(DB2_SQL) as SqlFile[]) for (const sql of Object.values(lib.file(file))) for (const p of placeholders(sql)) used.add(p);
    expect([...used].sort()).toEqual(['partition_end', 'partition_size', 'schema', 'table', 'tablespace']);
  });

  it('fills placeholders', () => {
    expect(lib.get('tables', 'item', { tablespace: 'TPCCTS' })).toMatch(/\) IN TPCCTS$/);
    expect(lib.get('counters', 'runstats', { schema: 'BENCH', table: 'ORDER_LINE' })).toBe(
      `CALL SYSPROC.ADMIN_CMD('RUNSTATS ON TABLE "BENCH"."ORDER_LINE" WITH DISTRIBUTION AND DETAILED INDEXES ALL')`,
    );
    expect(lib.get('check', 'row_count', { table: 'history' })).toBe('SELECT BIGINT(COUNT_BIG(*)) AS n FROM history');
    expect(() => lib.get('tables', 'item')).toThrow(/\$\{tablespace\}/);
  });

  it('partitions ORDER_LINE only when asked and W >= 200, covering every warehouse', () => {
    expect(tableStatements(target, 1000).names).toContain('order_line');
    const p = tableStatements({ ...target, partition: true }, 1050);
    expect(p.names).toContain('order_line_partitioned');
    expect(p.vars).toMatchObject({ partition_size: 105, partition_end: 1050 });
    const odd = tableStatements({ ...target, partition: true }, 1234);
    expect(Number(odd.vars['partition_end'])).toBeGreaterThanOrEqual(1234);
    expect(lib.get('tables', 'order_line_partitioned', odd.vars)).toContain('PARTITION BY RANGE (ol_w_id) (STARTING 1 ENDING 1236 EVERY 103)');
    expect(tableStatements({ ...target, partition: true }, 199).names).toContain('order_line');
    expect(() => tableStatements({ ...target, tablespace: '1TS' }, 1)).toThrow(/tprocc.schema.tablespace/);
  });

  it('validates identifiers and cleans terminators', () => {
    expect(identifier('USERSPACE1', 'tprocc.schema.tablespace')).toBe('USERSPACE1');
    expect(() => identifier('USER SPACE', 'tprocc.schema.tablespace')).toThrow();
    expect(cleanStatement('-- c\nCREATE X\nEND\n@\n\n-- next')).toBe('CREATE X\nEND');
    expect(cleanStatement('DROP TABLE t@')).toBe('DROP TABLE t');
    expect(versionFromServiceLevel('DB2 v11.5.9.0')).toBe('11.5.9.0');
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

  it('drops every table and routine', () => {
    const drops = Object.values(lib.file('drop')).join('\n');
    for (const t of TPROCC_TABLES) expect(drops.split('\n')).toContain(`DROP TABLE ${t}`);
    for (const r of TPROCC_ROUTINES) expect(drops).toContain(`DROP PROCEDURE ${r}`);
  });

  it('declares exactly the parameters the driver binds, in order and direction', () => {
    const procs = lib.file('procedures');
    for (const r of TPROCC_ROUTINES) expect(procs[r]).toMatch(new RegExp(`^CREATE OR REPLACE PROCEDURE ${r} \\(`));
    const wl = new TproccVuInputs(5, { warehouses: 3, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
    for (const tx of TX_TYPES) {
      const call = db2Call(tx, wl.input(tx));
      const body = procs[call.procedure]!;
      const header = body.slice(0, body.search(/^\)$/m));
      const declared = [...header.matchAll(/^\s+(IN|OUT)\s+p_(\w+)\s+(\w+)/gm)].map((m) => ({ dir: m[1]!, name: m[2]!, type: m[3]! }));
      expect(declared).toHaveLength(call.params.length);
      const outs = declared.filter((d) => d.dir === 'OUT');
      expect(outs.map((d) => d.name), call.procedure).toEqual(call.outputs);
      declared.forEach((d, i) => {
        const p = call.params[i];
        const isOut = typeof p === 'object' && p !== null;
        expect(isOut, `${call.procedure} p_${d.name}`).toBe(d.dir === 'OUT');
        if (isOut && p.DataType === 'CHAR') expect(['VARCHAR', 'CHAR']).toContain(d.type);
        if (isOut && p.DataType === 'BIGINT') expect(d.type).toBe('INTEGER');
      });
      expect(call.sql).toBe(`CALL ${call.procedure}(${call.params.map(() => '?').join(', ')})`);
    }
  });
});
