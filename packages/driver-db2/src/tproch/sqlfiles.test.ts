import { describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, TPROCH_QUERY_PARAMS, fillQuery, parseNamedSql } from '@sledge/core';
import { TPROCH_TABLES } from '@sledge/protocol';
import { sqlFiles, sqlText } from '@sledge/sql';
import { placeholders } from '../engine/sql-text.js';
import { DB2_TPROCH_SQL, db2TprochSql } from './sqlfiles.js';

/** Values for every query parameter (the shapes core's params module draws). */
const FIXTURE: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'BRAZIL', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '3', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

const queries = parseNamedSql(sqlText('db2', 'tproch', 'queries.sql'));
const braces = (sql: string) => [...new Set([...sql.matchAll(/\{\{([a-z0-9]+)\}\}/g)].map((m) => m[1]!))].sort();

describe('packages/sql/db2/tproch files', () => {
  it('has the TPROC-H file set', () => {
    expect(sqlFiles('db2', 'tproch').map((f) => f.name)).toEqual(['admin.sql', 'drop.sql', 'keys.sql', 'queries.sql', 'refresh.sql', 'statistics.sql', 'tables.sql']);
  });

  for (const file of Object.keys(DB2_TPROCH_SQL) as (keyof typeof DB2_TPROCH_SQL)[]) {
    it(`${file}.sql defines exactly the statements the driver runs, each filled completely`, () => {
      expect(Object.keys(db2TprochSql.file(file))).toEqual([...DB2_TPROCH_SQL[file]]);
      for (const name of DB2_TPROCH_SQL[file]) {
        const sql = db2TprochSql.get(file, name, { schema: 'TPCH', table: 'LINEITEM', dop: 4 });
        expect(sql.length, name).toBeGreaterThan(5);
        expect(sql, name).not.toMatch(/^\s*--/);
        expect(sql, name).not.toMatch(/[;@]\s*$/);
        expect(placeholders(sql), name).toEqual([]);
      }
    });
  }

  it('fills schema, table and degree', () => {
    expect(db2TprochSql.get('statistics', 'runstats', { schema: 'TPCH', table: 'LINEITEM' })).toBe(
      `CALL SYSPROC.ADMIN_CMD('RUNSTATS ON TABLE "TPCH"."LINEITEM" WITH DISTRIBUTION AND DETAILED INDEXES ALL')`,
    );
    expect(db2TprochSql.get('admin', 'create_schema', { schema: 'TPCH' })).toBe('CREATE SCHEMA TPCH');
    expect(() => db2TprochSql.get('admin', 'create_schema')).toThrow(/\$\{schema\}/);
  });

  it('creates every generated column, in the generator order, without keys', () => {
    const tables = db2TprochSql.file('tables');
    for (const t of TPROCH_TABLES) {
      const ddl = tables[t]!;
      expect(ddl).toMatch(new RegExp(`^CREATE TABLE ${t} \\(`));
      const cols = [...ddl.matchAll(/^\s+([a-z_]+)\s+(INTEGER|BIGINT|CHAR|VARCHAR|DECIMAL|DATE)\b/gm)].map((m) => m[1]);
      expect(cols, t).toEqual([...TPROCH_COLUMNS[t]]);
      expect(ddl).not.toMatch(/PRIMARY KEY|REFERENCES/i);
    }
  });

  it('keys: LINEITEM (l_linenumber, l_orderkey), every foreign key with its index, no deferral (Db2 has none)', () => {
    const keys = db2TprochSql.file('keys');
    for (const t of TPROCH_TABLES) expect(keys[`${t}_pk`], t).toMatch(/PRIMARY KEY/);
    expect(keys['lineitem_pk']).toBe('ALTER TABLE lineitem ADD CONSTRAINT lineitem_pk PRIMARY KEY (l_linenumber, l_orderkey)');
    const fks = Object.keys(keys).filter((k) => k.endsWith('_fk'));
    expect(fks).toHaveLength(8);
    for (const fk of fks) {
      const cols = /FOREIGN KEY \(([^)]+)\)/.exec(keys[fk]!)![1];
      expect(keys[`${fk}idx`], fk).toMatch(new RegExp(`^CREATE INDEX ${fk}idx ON \\w+ \\(${cols}\\)$`));
      expect(keys[fk]).not.toMatch(/DEFERRABLE/);
    }
  });

  it('queries.sql holds q1..q22, Q15 as one statement with the revenue view as a common table expression', () => {
    expect(Object.keys(queries)).toEqual(Array.from({ length: 22 }, (_, i) => `q${i + 1}`));
    expect(queries['q15']).toMatch(/^WITH revenue \(supplier_no, total_revenue\) AS \(/);
  });

  for (let q = 1; q <= 22; q++) {
    it(`Q${q}: uses its parameters (Q15 needs no stream) and fills into plain Db2 SQL`, () => {
      const expected = TPROCH_QUERY_PARAMS[q]!.filter((p) => !(q === 15 && p === 'stream'));
      expect(braces(queries[`q${q}`]!)).toEqual([...expected].sort());
      const filled = fillQuery(queries[`q${q}`]!, FIXTURE);
      expect(filled).not.toMatch(/\{\{|\}\}|\$\{/);
      expect(filled.split('(').length, 'balanced parentheses').toBe(filled.split(')').length);
      expect(filled).not.toMatch(/\bTOP \d|\bLIMIT\b|DATEADD|ADD_MONTHS|INTERVAL|EXTRACT|;\s*$/i);
    });
  }

  it('limits rows with FETCH FIRST n ROWS ONLY (Q2 100, Q3 10, Q10 20, Q18 100, Q21 100)', () => {
    const limits: Record<number, number> = { 2: 100, 3: 10, 10: 20, 18: 100, 21: 100 };
    for (let q = 1; q <= 22; q++) {
      const f = [...queries[`q${q}`]!.matchAll(/FETCH FIRST (\d+) ROWS ONLY/g)].map((m) => Number(m[1]));
      expect(f, `q${q}`).toEqual(limits[q] ? [limits[q]] : []);
    }
  });

  it('writes date arithmetic with labeled durations and divides Q8/Q14 as DOUBLE', () => {
    expect(queries['q1']).toContain("l_shipdate <= DATE('1998-12-01') - {{delta}} DAYS");
    expect(queries['q4']).toContain("DATE('{{date}}') + 3 MONTHS");
    expect(queries['q5']).toContain("DATE('{{date}}') + 1 YEAR");
    expect(queries['q14']).toContain("DATE('{{date}}') + 1 MONTH");
    expect(queries['q9']).toContain('YEAR(o_orderdate) AS o_year');
    expect(queries['q8']).toMatch(/^SELECT o_year, DOUBLE\(SUM\(/);
    expect(queries['q14']).toMatch(/^SELECT 100\.00 \* DOUBLE\(SUM\(/);
  });

  it('refresh.sql: a parameter marker per RF1 column, dates through DATE()', () => {
    const r = db2TprochSql.file('refresh');
    expect(r['insert_order']!.match(/\?/g)).toHaveLength(TPROCH_COLUMNS.orders.length);
    expect(r['insert_lineitem']!.match(/\?/g)).toHaveLength(TPROCH_COLUMNS.lineitem.length);
    expect(r['insert_lineitem']!.match(/DATE\(CAST\(\? AS CHAR\(10\)\)\)/g)).toHaveLength(3);
    expect(r['delete_order']).toBe('DELETE FROM orders WHERE o_orderkey = ?');
  });
});
