import { describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, TPROCH_QUERY_PARAMS, fillQuery, parseNamedSql } from '@sledge/core';
import { TPROCH_TABLES } from '@sledge/protocol';
import { sqlFiles, sqlText } from '@sledge/sql';
import { placeholders } from '../engine/sql-text.js';
import { MSSQL_TPROCH_SQL, mssqlTprochSql } from './sqlfiles.js';

/** Values for every query parameter (the shapes core's params module draws). */
const FIXTURE: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'BRAZIL', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '3', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

const queries = parseNamedSql(sqlText('mssql', 'tproch', 'queries.sql'));
const braces = (sql: string) => [...new Set([...sql.matchAll(/\{\{([a-z0-9]+)\}\}/g)].map((m) => m[1]!))].sort();
/** The statements of query q as the workload runs them (Q15: view, select, drop). */
const statementsOf = (q: number) => (q === 15 ? ['q15_view', 'q15', 'q15_drop'] : [`q${q}`]).map((n) => queries[n]!);

describe('packages/sql/mssql/tproch files', () => {
  it('has the TPROC-H file set', () => {
    expect(sqlFiles('mssql', 'tproch').map((f) => f.name)).toEqual(['admin.sql', 'drop.sql', 'keys.sql', 'queries.sql', 'refresh.sql', 'statistics.sql', 'tables.sql']);
  });

  for (const file of Object.keys(MSSQL_TPROCH_SQL) as (keyof typeof MSSQL_TPROCH_SQL)[]) {
    it(`${file}.sql defines exactly the statements the driver runs, each filled completely`, () => {
      expect(Object.keys(mssqlTprochSql.file(file))).toEqual([...MSSQL_TPROCH_SQL[file]]);
      for (const name of MSSQL_TPROCH_SQL[file]) {
        const sql = mssqlTprochSql.get(file, name, { database: 'tpch', table: 'lineitem', dop: 4 });
        expect(sql.length, name).toBeGreaterThan(5);
        expect(sql, name).not.toMatch(/^\s*--/);
        expect(placeholders(sql), name).toEqual([]);
      }
    });
  }

  it('creates every generated column, in the generator order, without keys', () => {
    const tables = mssqlTprochSql.file('tables');
    for (const t of TPROCH_TABLES) {
      const ddl = tables[t]!;
      expect(ddl).toMatch(new RegExp(`^CREATE TABLE dbo\\.${t} \\(`));
      const cols = [...ddl.matchAll(/^\s+([a-z_]+)\s+(int|bigint|char|varchar|decimal|date)\b/gm)].map((m) => m[1]);
      expect(cols, t).toEqual([...TPROCH_COLUMNS[t]]);
      expect(ddl).not.toMatch(/PRIMARY KEY|REFERENCES/i);
    }
  });

  it('keys: a primary key per table, LINEITEM (l_linenumber, l_orderkey), every foreign key with its index', () => {
    const keys = mssqlTprochSql.file('keys');
    for (const t of TPROCH_TABLES) expect(keys[`${t}_pk`], t).toMatch(/PRIMARY KEY/);
    expect(keys['lineitem_pk']).toContain('PRIMARY KEY CLUSTERED (l_linenumber, l_orderkey)');
    const fks = Object.keys(keys).filter((k) => k.endsWith('_fk'));
    expect(fks.sort()).toEqual(
      ['customer_nation_fk', 'lineitem_order_fk', 'lineitem_partsupp_fk', 'nation_region_fk', 'orders_customer_fk', 'partsupp_part_fk', 'partsupp_supplier_fk', 'supplier_nation_fk'].sort(),
    );
    for (const fk of fks) {
      const cols = /FOREIGN KEY \(([^)]+)\)/.exec(keys[fk]!)![1];
      expect(keys[`${fk}idx`], fk).toMatch(new RegExp(`^CREATE INDEX ${fk}idx ON dbo\\.\\w+ \\(${cols!.replace(/[()]/g, '')}\\)$`));
    }
  });

  it('queries.sql holds q1..q22 and Q15 as view, select, drop', () => {
    const names = Object.keys(queries);
    expect(names).toEqual([...Array.from({ length: 14 }, (_, i) => `q${i + 1}`), 'q15_view', 'q15', 'q15_drop', ...Array.from({ length: 7 }, (_, i) => `q${i + 16}`)]);
    expect(queries['q15_view']).toMatch(/^CREATE VIEW revenue\{\{stream\}\} /);
    expect(queries['q15']).toContain('FROM supplier, revenue{{stream}}');
    expect(queries['q15_drop']).toBe('DROP VIEW revenue{{stream}}');
  });

  for (let q = 1; q <= 22; q++) {
    it(`Q${q}: uses exactly its parameters and fills completely`, () => {
      const used = [...new Set(statementsOf(q).flatMap(braces))].sort();
      expect(used).toEqual([...TPROCH_QUERY_PARAMS[q]!].sort());
      for (const s of statementsOf(q)) {
        const filled = fillQuery(s, FIXTURE);
        expect(filled).not.toMatch(/\{\{|\}\}/);
        expect(filled.split('(').length, 'balanced parentheses').toBe(filled.split(')').length);
        expect(filled).not.toMatch(/\bLIMIT\b|FETCH FIRST|INTERVAL|EXTRACT\(/i);
      }
    });
  }

  it('limits rows with TOP as the specification asks (Q2 100, Q3 10, Q10 20, Q18 100, Q21 100)', () => {
    const limits: Record<number, number> = { 2: 100, 3: 10, 10: 20, 18: 100, 21: 100 };
    for (let q = 1; q <= 22; q++) {
      const tops = [...statementsOf(q).join('\n').matchAll(/\bTOP (\d+)\b/g)].map((m) => Number(m[1]));
      expect(tops, `q${q}`).toEqual(limits[q] ? [limits[q]] : []);
    }
  });

  it('writes date arithmetic with DATEADD on date values', () => {
    expect(queries['q1']).toContain("DATEADD(day, -{{delta}}, CAST('1998-12-01' AS date))");
    expect(queries['q4']).toContain("DATEADD(month, 3, CAST('{{date}}' AS date))");
    expect(queries['q6']).toContain("DATEADD(year, 1, CAST('{{date}}' AS date))");
    expect(queries['q14']).toContain("DATEADD(month, 1, CAST('{{date}}' AS date))");
    expect(fillQuery(queries['q6']!, FIXTURE)).toContain('l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01');
  });

  it('refresh.sql binds every RF1 column by name in generator order', () => {
    const r = mssqlTprochSql.file('refresh');
    expect([...r['insert_order']!.matchAll(/@(\w+)/g)].map((m) => m[1])).toEqual([...TPROCH_COLUMNS.orders]);
    expect([...r['insert_lineitem']!.matchAll(/@(\w+)/g)].map((m) => m[1])).toEqual([...TPROCH_COLUMNS.lineitem]);
    expect(r['delete_lineitem']).toBe('DELETE FROM dbo.lineitem WHERE l_orderkey = @orderkey');
  });
});
