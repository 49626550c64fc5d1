import { describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, TPROCH_QUERY_PARAMS, fillQuery, parseNamedSql } from '@sledge/core';
import { OracleTarget, TPROCH_TABLES, validate } from '@sledge/protocol';
import { sqlFiles, sqlText } from '@sledge/sql';
import { placeholders } from '../engine/sql-text.js';
import { ORACLE_TPROCH_SQL, oracleTprochSql, tprochVars } from './sqlfiles.js';

/** Values for every query parameter (the shapes core's params module draws). */
const FIXTURE: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'BRAZIL', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '3', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

const queries = parseNamedSql(sqlText('oracle', 'tproch', 'queries.sql'));
const braces = (sql: string) => [...new Set([...sql.matchAll(/\{\{([a-z0-9]+)\}\}/g)].map((m) => m[1]!))].sort();
const VARS = { ...tprochVars(validate(OracleTarget, { engine: 'oracle', user: 'tpch', password: 'tpch' })), table: 'lineitem', dop: 4 };

describe('packages/sql/oracle/tproch files', () => {
  it('has the TPROC-H file set', () => {
    expect(sqlFiles('oracle', 'tproch').map((f) => f.name)).toEqual(['admin.sql', 'drop.sql', 'keys.sql', 'queries.sql', 'refresh.sql', 'statistics.sql', 'tables.sql']);
  });

  for (const file of Object.keys(ORACLE_TPROCH_SQL) as (keyof typeof ORACLE_TPROCH_SQL)[]) {
    it(`${file}.sql defines exactly the statements the driver runs, each filled completely`, () => {
      expect(Object.keys(oracleTprochSql.file(file))).toEqual([...ORACLE_TPROCH_SQL[file]]);
      for (const name of ORACLE_TPROCH_SQL[file]) {
        const sql = oracleTprochSql.get(file, name, VARS);
        expect(sql.length, name).toBeGreaterThan(5);
        expect(sql, name).not.toMatch(/^\s*--/);
        expect(placeholders(sql), name).toEqual([]);
        // SQL statements lose their ';' (the driver refuses it); PL/SQL blocks keep END;
        if (!/^(BEGIN|DECLARE)\b/.test(sql)) expect(sql, name).not.toMatch(/;\s*$/);
      }
    });
  }

  it('fills the user DDL with the validated names and the quoted password', () => {
    expect(oracleTprochSql.get('admin', 'create_user', VARS)).toBe('CREATE USER tpch IDENTIFIED BY "tpch"\n  DEFAULT TABLESPACE USERS\n  TEMPORARY TABLESPACE TEMP');
    expect(oracleTprochSql.get('statistics', 'gather_schema_stats')).toMatch(/^BEGIN\n\s+DBMS_STATS\.GATHER_SCHEMA_STATS\(\n\s+ownname\s+=> USER,[\s\S]*END;$/);
    expect(() => tprochVars(validate(OracleTarget, { engine: 'oracle', user: 'tp ch' }))).toThrow(/target.user/);
    expect(() => tprochVars(validate(OracleTarget, { engine: 'oracle', user: 'tpch', password: 'a"b' }))).toThrow(/target.password/);
  });

  it('creates every generated column, in the generator order, without keys', () => {
    const tables = oracleTprochSql.file('tables');
    for (const t of TPROCH_TABLES) {
      const ddl = tables[t]!;
      expect(ddl).toMatch(new RegExp(`^CREATE TABLE ${t} \\(`));
      const cols = [...ddl.matchAll(/^\s+([a-z_]+)\s+(NUMBER|CHAR|VARCHAR2|DATE)\b/gm)].map((m) => m[1]);
      expect(cols, t).toEqual([...TPROCH_COLUMNS[t]]);
      expect(ddl).not.toMatch(/PRIMARY KEY|REFERENCES/i);
    }
  });

  it('keys: LINEITEM (l_linenumber, l_orderkey), LINEITEM -> ORDERS deferrable, every foreign key with its index', () => {
    const keys = oracleTprochSql.file('keys');
    for (const t of TPROCH_TABLES) expect(keys[`${t}_pk`], t).toMatch(/PRIMARY KEY/);
    expect(keys['lineitem_pk']).toBe('ALTER TABLE lineitem ADD CONSTRAINT lineitem_pk PRIMARY KEY (l_linenumber, l_orderkey)');
    expect(keys['lineitem_order_fk']).toMatch(/REFERENCES orders \(o_orderkey\) DEFERRABLE INITIALLY IMMEDIATE$/);
    const fks = Object.keys(keys).filter((k) => k.endsWith('_fk'));
    expect(fks).toHaveLength(8);
    for (const fk of fks) {
      const cols = /FOREIGN KEY \(([^)]+)\)/.exec(keys[fk]!)![1];
      expect(keys[`${fk}idx`], fk).toMatch(new RegExp(`^CREATE INDEX ${fk}idx ON \\w+ \\(${cols}\\)$`));
    }
  });

  it('queries.sql holds q1..q22, Q15 as one statement with the revenue view as a WITH clause', () => {
    expect(Object.keys(queries)).toEqual(Array.from({ length: 22 }, (_, i) => `q${i + 1}`));
    expect(queries['q15']).toMatch(/^WITH revenue \(supplier_no, total_revenue\) AS \(/);
  });

  for (let q = 1; q <= 22; q++) {
    it(`Q${q}: uses its parameters (Q15 needs no stream) and fills into plain Oracle SQL`, () => {
      const expected = TPROCH_QUERY_PARAMS[q]!.filter((p) => !(q === 15 && p === 'stream'));
      expect(braces(queries[`q${q}`]!)).toEqual([...expected].sort());
      const filled = fillQuery(queries[`q${q}`]!, FIXTURE);
      expect(filled).not.toMatch(/\{\{|\}\}/);
      expect(filled.split('(').length, 'balanced parentheses').toBe(filled.split(')').length);
      expect(filled).not.toMatch(/\bTOP \d|\bLIMIT\b|DATEADD|INTERVAL|;\s*$/i);
      expect(filled, 'no SQL*Plus substitution character').not.toContain('&');
    });
  }

  it('limits rows with FETCH FIRST n ROWS ONLY (Q2 100, Q3 10, Q10 20, Q18 100, Q21 100)', () => {
    const limits: Record<number, number> = { 2: 100, 3: 10, 10: 20, 18: 100, 21: 100 };
    for (let q = 1; q <= 22; q++) {
      const f = [...queries[`q${q}`]!.matchAll(/FETCH FIRST (\d+) ROWS ONLY/g)].map((m) => Number(m[1]));
      expect(f, `q${q}`).toEqual(limits[q] ? [limits[q]] : []);
      if (limits[q]) expect(queries[`q${q}`]).toMatch(/\n FETCH FIRST \d+ ROWS ONLY$/);
    }
  });

  it('writes date arithmetic with DATE literals, ADD_MONTHS and day subtraction', () => {
    expect(queries['q1']).toContain("l_shipdate <= DATE '1998-12-01' - {{delta}}");
    expect(queries['q4']).toContain("ADD_MONTHS(DATE '{{date}}', 3)");
    expect(queries['q5']).toContain("ADD_MONTHS(DATE '{{date}}', 12)");
    expect(queries['q14']).toContain("ADD_MONTHS(DATE '{{date}}', 1)");
    expect(queries['q7']).toContain('EXTRACT(YEAR FROM l_shipdate) AS l_year');
    expect(queries['q22']).toContain('SUBSTR(c_phone, 1, 2)');
  });

  it('refresh.sql: positional binds for every RF1 column, dates through TO_DATE, the deferral statement', () => {
    const r = oracleTprochSql.file('refresh');
    expect([...r['insert_order']!.matchAll(/:(\d+)/g)].map((m) => Number(m[1]))).toEqual(TPROCH_COLUMNS.orders.map((_, i) => i + 1));
    expect([...r['insert_lineitem']!.matchAll(/:(\d+)/g)].map((m) => Number(m[1]))).toEqual(TPROCH_COLUMNS.lineitem.map((_, i) => i + 1));
    expect(r['insert_order']).toContain("TO_DATE(:5, 'YYYY-MM-DD')");
    expect(r['defer_lineitem_order_fk']).toBe('SET CONSTRAINT lineitem_order_fk DEFERRED');
  });
});
