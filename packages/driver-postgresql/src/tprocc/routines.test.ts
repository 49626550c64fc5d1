import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { namedStatements, scriptStatements } from './sqlfiles.js';

/**
 * The new-order and stock-level routines against a tiny hand-made schema (one warehouse, one district,
 * one customer, five items): the cases the set-based new order must keep (issue 17 item 1) —
 * a repeated item updates its stock row once per line, each line applying the < 10 -> + 91 rule to the
 * row as the previous line left it; an unknown item raises SLRBK with nothing written; the order lines
 * carry the line's s_dist and rounded amount — in both variants (functions and procedures).
 */
const host = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
const port = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);
const password = process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres';
const DB = 'sledge_pgtest_routines';

const admin = () => new pg.Client({ host, port, user: 'postgres', password, database: 'postgres' });
let c: pg.Client;

beforeAll(async () => {
  const a = admin();
  await a.connect();
  await a.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await a.query(`CREATE DATABASE ${DB}`);
  await a.end();
  c = new pg.Client({ host, port, user: 'postgres', password, database: DB });
  await c.connect();
  for (const sql of Object.values(namedStatements('tables.sql'))) await c.query(sql);
  for (const sql of scriptStatements('indexes.sql')) await c.query(sql);
  await c.query(`INSERT INTO warehouse VALUES (1, 0, 0.1000, 'w', 's1', 's2', 'c', 'st', '123451111')`);
  await c.query(`INSERT INTO district VALUES (1, 3001, 1, 0, 0.0500, 'd', 's1', 's2', 'c', 'st', '123451111')`);
  await c.query(`INSERT INTO customer VALUES (now(), 1, 1, 1, 0, 0, 'f', 'OE', 'BARBARBAR', 's1', 's2', 'c', 'st', '123451111', '1', 'GC', 50000, 0.2000, -10, 10, 'data')`);
  await c.query(`INSERT INTO item SELECT i, i, 'item' || i, 1.25 * i, 'data' FROM generate_series(1, 5) i`);
  await c.query(
    `INSERT INTO stock SELECT i, 1, 0, 14 + i, 0, 0, 'dist01-' || i, 'dist02-' || i, 'dist03-' || i, 'dist04-' || i, 'dist05-' || i,
            'dist06-' || i, 'dist07-' || i, 'dist08-' || i, 'dist09-' || i, 'dist10-' || i, 'data' FROM generate_series(1, 5) i`,
  );
}, 60_000);

afterAll(async () => {
  await c?.end();
  const a = admin();
  await a.connect();
  await a.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await a.end();
});

const stock = async () => (await c.query<{ i: number; q: number; ytd: number; cnt: number }>('SELECT s_i_id AS i, s_quantity AS q, s_ytd AS ytd, s_order_cnt AS cnt FROM stock ORDER BY 1')).rows;

for (const variant of ['functions', 'procedures'] as const) {
  describe(`${variant}.sql new order and stock level`, () => {
    const neword = async (items: number[], qty: number[]) => {
      const args = `1, 1, 1, '{${items.join(',')}}', '{${items.map(() => 1).join(',')}}', '{${qty.join(',')}}'`;
      const r = variant === 'functions' ? await c.query(`SELECT neword(${args}) AS total`) : await c.query(`CALL neword(${args}, NULL, NULL)`);
      return String(r.rows[0].total ?? r.rows[0].out_total);
    };

    beforeAll(async () => {
      for (const sql of scriptStatements(variant === 'functions' ? 'functions.sql' : 'procedures.sql')) await c.query(sql);
    });

    it('a repeated item updates its stock row once per line, applying the + 91 rule to the row as the previous line left it', async () => {
      await c.query('BEGIN');
      try {
        const before = await stock();
        // Item 1 starts at 15: 15 - 6 = 9 < 10 -> 100; then 100 - 6 = 94. Item 2: 16 - 3 = 13.
        const total = await neword([1, 2, 1], [6, 3, 6]);
        const after = await stock();
        expect(after[0]).toEqual({ i: 1, q: 94, ytd: before[0]!.ytd + 12, cnt: before[0]!.cnt + 2 });
        expect(after[1]).toEqual({ i: 2, q: 13, ytd: before[1]!.ytd + 3, cnt: before[1]!.cnt + 1 });
        expect(after.slice(2)).toEqual(before.slice(2));
        const lines = (await c.query('SELECT ol_number, ol_i_id, ol_quantity, ol_amount::text AS a, ol_dist_info FROM order_line WHERE ol_o_id = 3001 ORDER BY 1')).rows;
        // amount = qty * price * (1 + 0.10 + 0.05) * (1 - 0.20), rounded to cents per line.
        expect(lines).toEqual([
          { ol_number: 1, ol_i_id: 1, ol_quantity: 6, a: '6.90', ol_dist_info: 'dist01-1'.padEnd(24) },
          { ol_number: 2, ol_i_id: 2, ol_quantity: 3, a: '6.90', ol_dist_info: 'dist01-2'.padEnd(24) },
          { ol_number: 3, ol_i_id: 1, ol_quantity: 6, a: '6.90', ol_dist_info: 'dist01-1'.padEnd(24) },
        ]);
        expect(total).toBe('20.70');
      } finally {
        await c.query('ROLLBACK');
      }
    });

    it('distinct items: one row per line, in line order, the total is the sum of the rounded amounts', async () => {
      await c.query('BEGIN');
      try {
        const total = await neword([3, 5, 4], [1, 2, 10]);
        expect(await stock()).toEqual([
          { i: 1, q: 15, ytd: 0, cnt: 0 },
          { i: 2, q: 16, ytd: 0, cnt: 0 },
          { i: 3, q: 16, ytd: 1, cnt: 1 },
          { i: 4, q: 99, ytd: 10, cnt: 1 },
          { i: 5, q: 17, ytd: 2, cnt: 1 },
        ]);
        const lines = (await c.query('SELECT ol_i_id, ol_amount::text AS a FROM order_line WHERE ol_o_id = 3001 ORDER BY ol_number')).rows;
        // 3.75 * 0.92 = 3.45, 12.50 * 0.92 = 11.50, 50.00 * 0.92 = 46.00
        expect(lines).toEqual([{ ol_i_id: 3, a: '3.45' }, { ol_i_id: 5, a: '11.50' }, { ol_i_id: 4, a: '46.00' }]);
        expect(total).toBe('60.95');
        expect((await c.query('SELECT o_ol_cnt, o_all_local FROM orders WHERE o_id = 3001')).rows).toEqual([{ o_ol_cnt: 3, o_all_local: 1 }]);
      } finally {
        await c.query('ROLLBACK');
      }
    });

    it('an unknown item raises SLRBK before anything is written (no transaction id is ever assigned)', async () => {
      await c.query('BEGIN');
      try {
        await c.query('SAVEPOINT before_neword');
        await expect(neword([1, 2, 100001], [1, 1, 1])).rejects.toMatchObject({ code: 'SLRBK' });
        await c.query('ROLLBACK TO SAVEPOINT before_neword');
        // A write in the savepoint would have assigned the transaction an id.
        expect((await c.query('SELECT pg_current_xact_id_if_assigned() AS x')).rows[0].x).toBeNull();
      } finally {
        await c.query('ROLLBACK');
      }
    });

    it('stock level counts the low-stock items of the last 20 orders and leaves plan_cache_mode as it was', async () => {
      await c.query('BEGIN');
      try {
        await neword([1, 2, 3], [1, 1, 1]); // order 3001: stock 14, 15, 16 afterwards
        const r = variant === 'functions' ? await c.query('SELECT slev(1, 1, 16) AS n') : await c.query('CALL slev(1, 1, 16, NULL)');
        expect(Number(r.rows[0].n ?? r.rows[0].out_stock_count)).toBe(2);
        expect((await c.query('SHOW plan_cache_mode')).rows[0].plan_cache_mode).toBe('auto');
      } finally {
        await c.query('ROLLBACK');
      }
    });
  });
}
