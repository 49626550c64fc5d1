import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { TPROCC_COLUMNS, TPROCC_ROUTINES, TproccVuInputs, keySessions, keyStatementTable } from '@sledge/core';
import { DEFAULT_MIX, TPROCC_TABLES, TX_TYPES } from '@sledge/protocol';
import type { PgTproccTarget as PostgresqlTarget } from './target.js';
import { ROLLBACK_SQLSTATE } from '../engine/errors.js';
import { indexSteps, routineSteps } from './schema.js';
import { sqlFile } from '@sledge/sql';
import { renderVars } from '../engine/sql-text.js';
import { namedStatements, scriptStatements, sqlText, statement, SQL_FILES, type SqlFile } from './sqlfiles.js';
import { callStatements, txValues } from './vu.js';

const q = { escapeIdentifier: pg.escapeIdentifier, escapeLiteral: pg.escapeLiteral };

/** Column name -> nullable, from a CREATE TABLE statement of ours (one column per line). */
function columnsOf(ddl: string): Map<string, boolean> {
  const cols = new Map<string, boolean>();
  for (const line of ddl.split('\n')) {
    const m = /^\s+([a-z_0-9]+)\s+(integer|smallint|numeric|varchar|char|timestamptz)\b(.*)$/.exec(line);
    if (m) cols.set(m[1]!, !/NOT NULL/.test(m[3]!));
  }
  return cols;
}

/** Columns TPC-C (hammerdb.md §5.1) allows to be NULL. */
const NULLABLE = new Set(['h_c_id', 'o_carrier_id', 'ol_delivery_d', 'ol_amount', 'ol_dist_info']);

const target = (storedProcs: boolean): PostgresqlTarget => ({
  engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'u', password: 'p', database: 'd', superuser: 'postgres',
  superuserPassword: 's', defaultDatabase: 'postgres', sslmode: 'disable', tablespace: 'pg_default', storedProcs, partition: false, vacuum: false, prepared: true, noStoredProcs: false,
});

describe('packages/sql/postgresql/tprocc', () => {
  it("every file the driver reads is PostgreSQL's own, in the SQL package", () => {
    for (const f of Object.values(SQL_FILES)) {
      expect(sqlFile('postgresql', 'tprocc', f), f).toMatch(new RegExp(`packages/sql/postgresql/tprocc/${f.replace('.', '\\.')}$`));
      expect(sqlText(f).length, f).toBeGreaterThan(0);
    }
  });

  it('tables.sql creates the nine tables with the generator columns and the NOT NULL rules', () => {
    const tables = namedStatements('tables.sql');
    expect(Object.keys(tables).sort()).toEqual([...TPROCC_TABLES].sort());
    for (const table of TPROCC_TABLES) {
      const sql = tables[table]!;
      expect(sql).toMatch(new RegExp(`^CREATE TABLE ${table} \\(`));
      const cols = columnsOf(sql);
      expect([...cols.keys()].sort(), table).toEqual([...TPROCC_COLUMNS[table]].sort());
      for (const [col, nullable] of cols) expect(nullable, `${table}.${col} nullable`).toBe(NULLABLE.has(col));
    }
    // Keys come after the load.
    expect(Object.values(tables).join('\n')).not.toMatch(/PRIMARY KEY|UNIQUE/i);
  });

  it('the partitioned ORDER_LINE has the same columns, hashed on ol_w_id', () => {
    const plain = columnsOf(statement('tables.sql', 'order_line'));
    const part = statement('partition.sql', 'order_line_partitioned');
    expect(columnsOf(part)).toEqual(plain);
    expect(part).toMatch(/PARTITION BY HASH \(ol_w_id\)\s*$/);
  });

  it('indexes.sql keys every table except history, with the two secondary unique indexes', () => {
    const steps = indexSteps();
    expect(steps).toHaveLength(10);
    const all = steps.map((s) => s.sql).join('\n');
    for (const table of TPROCC_TABLES.filter((x) => x !== 'history')) expect(all).toMatch(new RegExp(`(ALTER TABLE|ON) ${table}\\b`));
    expect(all).not.toMatch(/\bhistory\b/);
    expect(all).toMatch(/CREATE UNIQUE INDEX customer_i2 ON customer \(c_w_id, c_d_id, c_last, c_first, c_id\)/);
    expect(all).toMatch(/CREATE UNIQUE INDEX orders_i2 ON orders \(o_w_id, o_d_id, o_c_id, o_id\)/);
    expect(all).toMatch(/order_line_i1 PRIMARY KEY \(ol_w_id, ol_d_id, ol_o_id, ol_number\)/);
  });

  it('every indexes.sql statement names its table, so a build can split the keys over two sessions', () => {
    for (const t of indexSteps().map((s) => keyStatementTable(s.sql))) expect(TPROCC_TABLES).toContain(t);
    for (const W of [1, 16, 100]) expect(keySessions(W, 2, indexSteps(), (s) => s.sql).flatMap((l) => l.keys)).toHaveLength(indexSteps().length);
  });

  for (const [file, kind] of [['functions.sql', 'FUNCTION'], ['procedures.sql', 'PROCEDURE']] as const) {
    it(`${file} defines all five routines as ${kind.toLowerCase()}s and drops the other variant first`, () => {
      const stmts = scriptStatements(file);
      expect(stmts).toHaveLength(6);
      expect(stmts[0]).toMatch(/^DO \$\$/m);
      expect(stmts[0]).toMatch(/DROP ROUTINE/);
      const names = stmts.slice(1).map((s) => new RegExp(`^CREATE ${kind} (\\w+)\\(`, 'm').exec(s)?.[1]);
      expect(names.sort()).toEqual([...TPROCC_ROUTINES].sort());
      for (const s of stmts.slice(1)) expect(s).toMatch(/LANGUAGE plpgsql AS \$\$[\s\S]*\$\$$/);
      // The new-order rollback is the dedicated SQLSTATE the driver maps to 'rollback'.
      const neword = stmts.find((s) => /CREATE \w+ neword\(/.test(s))!;
      expect(neword).toContain(`ERRCODE = '${ROLLBACK_SQLSTATE}'`);
      expect(neword).toMatch(/\+ 91/);
      const payment = stmts.find((s) => /CREATE \w+ payment\(/.test(s))!;
      expect(payment).toContain(`'    '`); // h_data = w_name || 4 spaces || d_name
      expect(payment).toMatch(/OFFSET \(v_count \+ 1\) \/ 2 - 1/); // ceil(n/2), 1-based
      // Stock level is planned once per session: its custom plans would be re-planned on every call.
      const slev = stmts.find((s) => /CREATE \w+ slev\(/.test(s))!;
      expect(slev).toMatch(/SET plan_cache_mode = force_generic_plan/);
    });
  }

  it('routineSteps picks the variant the target asks for', () => {
    expect(routineSteps(target(false)).slice(1).every((s) => /^creating function \w+$/.test(s.what))).toBe(true);
    expect(routineSteps(target(true)).slice(1).every((s) => /^creating procedure \w+$/.test(s.what))).toBe(true);
  });

  it('drop.sql removes the routines and all nine tables', () => {
    const stmts = scriptStatements('drop.sql');
    expect(stmts).toHaveLength(2);
    for (const table of TPROCC_TABLES) expect(stmts[1]).toMatch(new RegExp(`\\b${table}\\b`));
  });

  it('has every named statement the driver runs', () => {
    const need: Partial<Record<SqlFile, string[]>> = {
      'admin.sql': [
        'server_version', 'database_exists', 'role_exists', 'create_role', 'create_database', 'terminate_sessions', 'drop_database', 'drop_role',
        'warehouse_table_exists', 'max_warehouse',
      ],
      'counters.sql': ['nopm_counter', 'tpm_counter', 'analyze', 'analyze_table', 'vacuum'],
      'check.sql': ['tables', 'indexed_tables', 'routines', 'row_counts', 'max_warehouse', 'warehouse_facts', 'district_facts'],
      'partition.sql': ['order_line_partitioned', 'order_line_partition'],
      'calls.sql': TX_TYPES.flatMap((tx) => [`select_${tx}`, `call_${tx}`]),
    };
    for (const [file, names] of Object.entries(need)) {
      const set = namedStatements(file as SqlFile);
      for (const n of names) expect(set[n], `${file}: ${n}`).toBeTruthy();
      for (const sql of Object.values(set)) expect(sql, file).not.toMatch(/;\s*\S/); // one statement each
    }
  });

  it('database and role statements quote identifiers and literals', () => {
    const sql = renderVars(statement('admin.sql', 'create_role'), { role: 'Tpc "x"', password: "it's" }, q);
    expect(sql).toBe(`CREATE ROLE "Tpc ""x""" LOGIN PASSWORD 'it''s'`);
    const db = renderVars(statement('admin.sql', 'create_database'), { database: 'MyDb', role: 'tpcc', tablespace: 'pg_default' }, q);
    expect(db).toBe('CREATE DATABASE "MyDb" OWNER "tpcc" TABLESPACE "pg_default"');
    expect(renderVars(statement('admin.sql', 'database_exists'), { database: "a'b" }, q)).toContain(`datname = 'a''b'`);
  });

  it('renderVars leaves casts alone, rejects missing quoted values and non-integer bare values', () => {
    expect(renderVars("SELECT x::text FROM t WHERE w = :w AND n = :'n'", { w: 3, n: 'a' }, q)).toBe("SELECT x::text FROM t WHERE w = 3 AND n = 'a'");
    expect(() => renderVars('SELECT :"missing"', {}, q)).toThrow(/missing/);
    expect(() => renderVars('SELECT :w', { w: '1; DROP TABLE x' }, q)).toThrow(/integer/);
    expect(renderVars('SELECT :unknown', {}, q)).toBe('SELECT :unknown');
  });

  it('call statements bind exactly the values the VU passes', () => {
    const wl = new TproccVuInputs(5, { warehouses: 3, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
    for (const storedProcs of [false, true]) {
      const calls = callStatements(target(storedProcs));
      for (const tx of TX_TYPES) {
        const sql = calls[tx];
        expect(sql).toMatch(storedProcs ? /^CALL / : /^SELECT /);
        const params = new Set(sql.match(/\$\d+/g));
        expect(params.size, `${tx} (${storedProcs ? 'procedures' : 'functions'})`).toBe(txValues(tx, wl.input(tx)).length);
      }
    }
  });

  it('new-order values carry the client order lines as three arrays', () => {
    const v = txValues('neworder', {
      w_id: 2, max_w: 3, d_id: 4, c_id: 5, ol_cnt: 2, rollback: true, all_local: false,
      lines: [{ i_id: 10, supply_w_id: 2, quantity: 3 }, { i_id: 100001, supply_w_id: 1, quantity: 9 }],
    });
    expect(v).toEqual([2, 4, 5, [10, 100001], [2, 1], [3, 9]]);
    expect(txValues('payment', { w_id: 1, d_id: 2, c_w_id: 3, c_d_id: 4, c_id: 5, byname: true, c_last: 'BARBAR', amount: 42 })).toEqual([1, 2, 3, 4, 5, true, 'BARBAR', 42]);
  });
});
