import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MIX, SledgeError, TX_TYPES, type TxType } from '@sledge/protocol';
import { TPROCC_ROUTINES, TproccVuInputs } from '@sledge/core';
import { sqlEngines, sqlFile, sqlFiles, sqlText } from '@sledge/sql';
import { MARIADB, MYSQL } from '../engine/flavour.js';
import { dropStatements, procedureStatements, tableStatements } from './schema.js';
import { fillPlaceholders, quoteIdent } from '../engine/sql-text.js';
import { SQL_FILES, sqlFor, stripDelimiter } from './sqlfiles.js';
import { mariadbTarget, mysqlTarget } from '../testing/live.js';
import { callParams, callStatements } from './vu.js';

const here = dirname(fileURLToPath(import.meta.url));
const mysqlSql = sqlFor(MYSQL);
const mariaSql = sqlFor(MARIADB);
/** Names of the files in an engine's own tprocc folder. */
const own = (engine: 'mysql' | 'mariadb') => sqlFiles(engine, 'tprocc').filter((f) => f.from === engine).map((f) => f.name);

describe('SQL file set', () => {
  it('packages/sql/mysql/tprocc holds every file the driver reads', () => {
    const mysql = own('mysql');
    for (const f of SQL_FILES) expect(mysql).toContain(f);
  });

  it('packages/sql/mariadb/tprocc holds only overrides of mysql files, each with different content', () => {
    const mysql = own('mysql');
    const maria = own('mariadb');
    expect(maria).toContain('counters.sql');
    for (const f of maria) {
      expect(mysql).toContain(f);
      expect(sqlText('mariadb', 'tprocc', f)).not.toBe(sqlText('mysql', 'tprocc', f));
    }
  });

  it('MariaDB falls back to mysql/ per file; MySQL never reads mariadb/', () => {
    expect(sqlEngines('mariadb')).toEqual(['mariadb', 'mysql']);
    expect(sqlEngines('mysql')).toEqual(['mysql']);
    const maria = new Set(own('mariadb'));
    for (const f of SQL_FILES) {
      expect(mariaSql.path(f)).toMatch(new RegExp(`/${maria.has(f) ? 'mariadb' : 'mysql'}/tprocc/${f.replace('.', '\\.')}$`));
      expect(mysqlSql.path(f)).toMatch(new RegExp(`/mysql/tprocc/${f.replace('.', '\\.')}$`));
    }
    expect(mariaSql.path('counters.sql')).toMatch(/\/mariadb\/tprocc\/counters\.sql$/);
    expect(() => sqlFile('mysql', 'tprocc', 'no-such-file.sql')).toThrow(/not found for mysql/);
  });

  it('every named statement the code asks for exists', () => {
    const src = (f: string) => readFileSync(join(here, '..', f), 'utf8');
    const names = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);
    const client = names(src('tprocc/vu-client.ts'), /this\.(?:q|one)\('([a-z_]+)'/g);
    expect(client.length).toBeGreaterThan(20);
    for (const s of [mysqlSql, mariaSql]) {
      for (const n of client) expect(s.has('client.sql', n), `client.sql ${n}`).toBe(true);
      for (const n of names(src('tprocc/admin.ts'), /rows\('([a-z_]+)'/g)) expect(s.has('admin.sql', n), `admin.sql ${n}`).toBe(true);
      for (const n of names(src('tprocc/check.ts'), /rows\('([a-z_]+)'/g)) expect(s.has('check.sql', n), `check.sql ${n}`).toBe(true);
      for (const n of names(src('tprocc/admin.ts'), /statement\('admin\.sql', '([a-z_]+)'/g)) expect(s.has('admin.sql', n), `admin.sql ${n}`).toBe(true);
      const counters = names(src('tprocc/admin.ts'), /(?:rowsOf|statement)\('counters\.sql', '([a-z_]+)'/g);
      expect(counters.sort()).toEqual(['analyze_table', 'engine_counters', 'nopm']);
      for (const n of counters) expect(s.has('counters.sql', n), `counters.sql ${n}`).toBe(true);
      expect(s.has('counters.sql', 'history_length')).toBe(true);
      expect(s.has('options.sql', 'history_pk') && s.has('options.sql', 'order_line_partition')).toBe(true);
    }
    for (const n of ['purge_wait', 'kill_query']) expect(mariaSql.has('counters.sql', n)).toBe(true);
  });

  it('named statements carry no comment lines', () => {
    for (const s of Object.values(mysqlSql.statements('client.sql'))) expect(s).not.toMatch(/^\s*--/m);
  });
});

describe('procedures.sql', () => {
  const stmts = procedureStatements(mysqlSql);
  const creates = stmts.filter((s) => s.startsWith('CREATE PROCEDURE'));

  it('creates every routine after dropping it, one statement each, no client delimiters left', () => {
    expect(creates.map((s) => /^CREATE PROCEDURE (\w+)/.exec(s)![1]).sort()).toEqual([...TPROCC_ROUTINES].sort());
    for (const r of TPROCC_ROUTINES) expect(stmts).toContain(`DROP PROCEDURE IF EXISTS ${r}`);
    expect(stmts.length).toBe(2 * TPROCC_ROUTINES.length);
    for (const s of stmts) {
      expect(s).not.toMatch(/DELIMITER/i);
      expect(s).not.toMatch(/\$\$/);
    }
  });

  it('each procedure is one transaction: one START TRANSACTION, one COMMIT, rollback in the error handler', () => {
    for (const s of creates) {
      expect(s.match(/START TRANSACTION/g)?.length, s.slice(0, 40)).toBe(1);
      expect(s.match(/\bCOMMIT;/g)?.length, s.slice(0, 40)).toBe(1);
      expect(s).toMatch(/DECLARE EXIT HANDLER FOR SQLEXCEPTION\s+BEGIN\s+ROLLBACK;\s+RESIGNAL;\s+END;/);
      expect(s).toMatch(/END$/);
    }
    const neword = creates.find((s) => s.startsWith('CREATE PROCEDURE neword'))!;
    expect(neword.match(/\bROLLBACK;/g)?.length).toBe(2); // the handler's and the unused-item case
  });

  it('calls.sql has a CALL per transaction type with as many ? as the driver binds', () => {
    const calls = callStatements(mysqlSql);
    const wl = new TproccVuInputs(3, { warehouses: 4, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
    for (const t of TX_TYPES as readonly TxType[]) {
      expect(calls[t]).toMatch(/^CALL (neword|payment|delivery|slev|ostat)\(/);
      expect(calls[t].match(/\?/g)?.length).toBe(callParams(t, wl.input(t)).length);
    }
  });
});

describe('tables.sql placeholders', () => {
  const create = (t: ReturnType<typeof mysqlTarget>, W: number) => tableStatements(mysqlSql, t, W);
  const byTable = (stmts: string[]) => Object.fromEntries(stmts.map((s) => [/^CREATE TABLE (\w+)/.exec(s)![1]!, s]));

  it('defaults: 9 tables, ENGINE from the target, no placeholder left, no HISTORY key, no partitions', () => {
    const s = create(mysqlTarget('tpcc'), 1);
    expect(s.length).toBe(9);
    for (const x of s) {
      expect(x).toMatch(/ENGINE = innodb/);
      expect(x).not.toMatch(/\{\{|\}\}/);
    }
    const t = byTable(s);
    expect(t.history).not.toMatch(/PRIMARY KEY/);
    expect(t.order_line).not.toMatch(/PARTITION/);
    expect(t.stock).toMatch(/PRIMARY KEY \(s_w_id, s_i_id\)/);
    expect(t.order_line).toMatch(/ol_amount DECIMAL\(6,2\)/);
  });

  it('storage engine, HISTORY key and ORDER_LINE partitions follow the target', () => {
    const t = byTable(create(mysqlTarget('tpcc', { storageEngine: 'Aria', historyPk: true, partition: true }), 250));
    expect(t.warehouse).toMatch(/ENGINE = Aria/);
    expect(t.history).toMatch(/id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY,\s+h_c_id/);
    expect(t.order_line).toMatch(/PARTITION BY HASH \(ol_w_id\) PARTITIONS 2$/);
    for (const n of ['warehouse', 'stock', 'customer']) expect(t[n]).not.toMatch(/PARTITION/);
    expect(byTable(create(mysqlTarget('tpcc', { partition: true }), 199)).order_line).not.toMatch(/PARTITION/);
    expect(byTable(create(mysqlTarget('tpcc', { partition: true }), 1000)).order_line).toMatch(/PARTITIONS 10$/);
    expect(byTable(create(mysqlTarget('tpcc', { partition: false }), 1000)).order_line).not.toMatch(/PARTITION/);
  });

  it('refuses a storage engine that is not a plain name', () => {
    const bad = { ...mysqlTarget('tpcc'), storageEngine: 'InnoDB; DROP DATABASE x' };
    try {
      create(bad, 1);
      expect.unreachable();
    } catch (e) {
      expect(SledgeError.is(e) && [e.code, e.field]).toEqual(['SLEDGE_E_VALIDATION', 'tprocc.schema.storageEngine']);
    }
  });

  it('fills placeholders, fails on a missing one, quotes identifiers', () => {
    expect(fillPlaceholders('a {{x}} b {{y}}', { x: '1', y: '2' })).toBe('a 1 b 2');
    expect(() => fillPlaceholders('{{x}} {{z}}', { x: '1' })).toThrow(/\{\{z\}\}/);
    expect(quoteIdent('we`ird')).toBe('`we``ird`');
    expect(dropStatements(mariaSql, mariadbTarget('sledge_mytest_x'))).toEqual(['DROP DATABASE IF EXISTS `sledge_mytest_x`']);
  });

  it('strips client delimiters from procedure pieces', () => {
    expect(stripDelimiter('DELIMITER $$')).toBe('');
    expect(stripDelimiter('DELIMITER')).toBe('');
    expect(stripDelimiter('CREATE PROCEDURE p()\nBEGIN\n  SELECT 1;\nEND $$')).toBe('CREATE PROCEDURE p()\nBEGIN\n  SELECT 1;\nEND');
  });
});
