import { describe, expect, it } from 'vitest';
import { normaliseSqlText, SQL_ID_CHARS, sqlIdOf, type SqlDialect } from './sqltext.js';

/** PostgreSQL's dialect, as driver-postgresql gives it. */
const PG: SqlDialect = { lineComment: /--[^\n]*/g, literal: /[Ee]?'(?:[^']|'')*'/g, param: /\$\d+/g };
const norm = (t: string) => normaliseSqlText(t, PG);
const id = (t: string) => sqlIdOf(norm(t));

describe('statement normaliser (ASH Top SQL groups by it; issue 31 item 10a)', () => {
  it('string and number literals, parameters and comments become one form', () => {
    expect(norm("SELECT * FROM customer /* x */ WHERE c_last = 'O''BRIEN' AND c_id = 42 -- tail\n AND c_w_id = $1")).toBe('select * from customer where c_last = ? and c_id = ? and c_w_id = ?');
    expect(id("SELECT c_id FROM customer WHERE c_last = 'BARBARBAR' AND c_d_id = 3")).toBe(id("select c_id from customer where c_last = 'OUGHTPRESPRI' and c_d_id = 10"));
    expect(norm('select t1.a from t1 where x = 1.5e3')).toBe('select t1.a from t1 where x = ?');
  });

  it('a sign belongs to its constant; a subtraction keeps its operator', () => {
    expect(norm('SELECT a FROM t WHERE b = -5 AND c IN (-1, 2) AND d > +3')).toBe(norm('select a from t where b = 5 and c in (1, 2) and d > 3'));
    expect(norm('SELECT a - 5 FROM t')).toBe('select a - ? from t');
    expect(norm('SELECT CASE WHEN a THEN -1 ELSE 2 END')).toBe('select case when a then ? else ? end');
  });

  it('IN lists and multi-row VALUES of any length are one statement', () => {
    expect(norm("SELECT * FROM orders WHERE o_orderpriority IN ('1-URGENT', '2-HIGH') AND o_id IN (1, 2, 3)")).toBe('select * from orders where o_orderpriority in (?) and o_id in (?)');
    expect(id("SELECT * FROM t WHERE k IN ('a')")).toBe(id("SELECT * FROM t WHERE k IN ('a', 'b', 'c', 'd')"));
    expect(norm('INSERT INTO t (a, b) VALUES (1, 2), (3, 4), (5, 6)')).toBe('insert into t (a, b) values (?, ?)');
    expect(id('INSERT INTO t (a, b) VALUES (1, 2)')).toBe(id('INSERT INTO t (a, b) VALUES (1, 2), (3, 4)'));
    // A subquery is not a list of constants.
    expect(norm('SELECT * FROM t WHERE k IN (SELECT k FROM u WHERE v = 1)')).toBe('select * from t where k in (select k from u where v = ?)');
  });

  it('text the server cut inside a literal or a comment ends in one placeholder', () => {
    expect(norm("SELECT * FROM part WHERE p_brand = 'Brand#1")).toBe('select * from part where p_brand = ?');
    expect(norm("SELECT * FROM part WHERE p_brand = 'Brand#12' AND p_type = 'LARGE BRUSHED")).toBe(norm("SELECT * FROM part WHERE p_brand = 'Brand#34' AND p_type = 'SMALL"));
    expect(norm('SELECT 1 /* a comment cut sh')).toBe('select ?');
  });

  it('one statement whose constants move where the server cut it keeps one id (the id covers its first SQL_ID_CHARS characters)', () => {
    // A long TPROC-H-like statement with constants of different lengths, cut at 1023 bytes as pg_stat_activity shows it.
    const statement = (brand: string, containers: string[], qty: number) =>
      `SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem, part WHERE ${[1, 2, 3, 4]
        .map((k) => `(p_partkey = l_partkey AND p_brand = '${brand}${k}' AND p_container IN (${containers.map((c) => `'${c}'`).join(', ')}) AND l_quantity >= ${qty * k} AND l_quantity <= ${qty * k} + 10 AND p_size BETWEEN 1 AND ${5 * k} AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON')`)
        .join(' OR ')}`;
    const a = statement('Brand#1', ['SM CASE', 'SM BOX', 'SM PACK', 'SM PKG'], 1);
    const b = statement('Brand#23', ['MED BAG', 'MED BOX'], 10);
    expect(Math.min(a.length, b.length)).toBeGreaterThan(1023);
    const cutA = a.slice(0, 1023);
    const cutB = b.slice(0, 1023);
    expect(norm(cutA)).not.toBe(norm(cutB));
    expect(norm(cutA).length).toBeGreaterThan(SQL_ID_CHARS);
    expect(sqlIdOf(norm(cutA))).toBe(sqlIdOf(norm(cutB)));
    expect(sqlIdOf(norm(cutA))).toBe(sqlIdOf(norm(a)));
    expect(sqlIdOf(norm(cutA))).not.toBe(sqlIdOf(norm(cutA.replace('lineitem, part', 'lineitem, partsupp'))));
  });

  it('different statements keep different ids', () => {
    expect(id('SELECT 1 FROM a')).not.toBe(id('SELECT 1 FROM b'));
    expect(id('SELECT a FROM t WHERE x IN (1, 2)')).not.toBe(id('SELECT a FROM t WHERE x NOT IN (1, 2) OR y = 1'));
    expect(id('SELECT 1')).toMatch(/^[0-9a-f]{16}$/);
  });
});
