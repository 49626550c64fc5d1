import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { namedStatements, scriptStatements } from './sqlfiles.js';
import type { TxInputs } from '@sledge/core';
import type { TxType } from '@sledge/protocol';
import { classifyError } from '../engine/errors.js';
import { PgClientSqlVu } from './vu-client.js';

/**
 * The new-order and stock-level routines against a tiny hand-made schema (one warehouse, one district,
 * one customer, five items): the cases the set-based new order must keep (issue 17 item 1) —
 * a repeated item updates its stock row once per line, each line applying the < 10 -> + 91 rule to the
 * row as the previous line left it; an unknown item raises SLRBK with nothing written; the order lines
 * carry the line's s_dist and rounded amount — in both variants (functions and procedures).
 * Then client.sql (target.noStoredProcs): each transaction leaves the same rows as the function does,
 * and a serialization failure rolls back cleanly so that the run's retry writes the order once.
 */
const host = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
const port = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);
const password = process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres';
const DB = 'sledge_pgtest_routines';

const admin = () => new pg.Client({ host, port, user: 'postgres', password, database: 'postgres' });
let c: pg.Client;

/** The hand-made rows (also restored before each client-side test, whose transactions commit). */
async function seed(): Promise<void> {
  await c.query(`INSERT INTO warehouse VALUES (1, 0, 0.1000, 'w', 's1', 's2', 'c', 'st', '123451111')`);
  await c.query(`INSERT INTO district VALUES (1, 3001, 1, 0, 0.0500, 'd', 's1', 's2', 'c', 'st', '123451111')`);
  await c.query(`INSERT INTO customer VALUES (now(), 1, 1, 1, 0, 0, 'f', 'OE', 'BARBARBAR', 's1', 's2', 'c', 'st', '123451111', '1', 'GC', 50000, 0.2000, -10, 10, 'data')`);
  await c.query(`INSERT INTO item SELECT i, i, 'item' || i, 1.25 * i, 'data' FROM generate_series(1, 5) i`);
  await c.query(
    `INSERT INTO stock SELECT i, 1, 0, 14 + i, 0, 0, 'dist01-' || i, 'dist02-' || i, 'dist03-' || i, 'dist04-' || i, 'dist05-' || i,
            'dist06-' || i, 'dist07-' || i, 'dist08-' || i, 'dist09-' || i, 'dist10-' || i, 'data' FROM generate_series(1, 5) i`,
  );
}

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
  await seed();
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

    it('payment by name reads the namesakes before it locks the warehouse row (issue 37): the rows locked and their order are unchanged', async () => {
      // Another session holds the warehouse row. A payment naming nobody must fail on the name, not wait
      // for that row: the namesakes (no lock) come first. lock_timeout only turns a wait into an error code.
      const holder = new pg.Client({ host, port, user: 'postgres', password, database: DB });
      const payer = new pg.Client({ host, port, user: 'postgres', password, database: DB });
      await holder.connect();
      await payer.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT w_id FROM warehouse WHERE w_id = 1 FOR UPDATE');
        await payer.query("SET lock_timeout = '50ms'");
        const args = `1, 1, 1, 1, 0, true, 'NOBODYHERE', 10`;
        const pay = (extra = '') => (variant === 'functions' ? payer.query(`SELECT payment(${args})`) : payer.query(`CALL payment(${args}${extra})`));
        await expect(pay(', NULL, NULL, NULL')).rejects.toMatchObject({ code: 'P0002', message: expect.stringMatching(/no customer named NOBODYHERE/) });
        // A payment by id still waits for the warehouse row first (lock_timeout: 55P03), as before.
        const byId = `1, 1, 1, 1, 1, false, '', 10`;
        await expect(variant === 'functions' ? payer.query(`SELECT payment(${byId})`) : payer.query(`CALL payment(${byId}, NULL, NULL, NULL)`)).rejects.toMatchObject({ code: '55P03' });
        await holder.query('ROLLBACK');
        // Once the row is free, a payment by name pays the customer it names and writes the same rows as before.
        await payer.query("SET lock_timeout = '0'");
        await payer.query('BEGIN');
        const r = variant === 'functions' ? await payer.query(`SELECT payment(1, 1, 1, 1, 0, true, 'BARBARBAR', 10) AS c`) : await payer.query(`CALL payment(1, 1, 1, 1, 0, true, 'BARBARBAR', 10, NULL, NULL, NULL)`);
        expect(Number(r.rows[0].c ?? r.rows[0].out_c_id)).toBe(1);
        const w = await payer.query('SELECT w_ytd::text AS y FROM warehouse WHERE w_id = 1');
        const cu = await payer.query('SELECT c_balance::text AS b, c_payment_cnt AS n FROM customer WHERE c_id = 1');
        expect(w.rows[0].y).toBe('10.00');
        expect(cu.rows[0]).toEqual({ b: '-20.00', n: 1 });
        await payer.query('ROLLBACK');
      } finally {
        await holder.end().catch(() => undefined);
        await payer.end().catch(() => undefined);
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

/** Every table's rows as JSON, timestamps reduced to "set or not" (they differ between two runs). */
async function snapshot(): Promise<Record<string, unknown>> {
  const stamps: Record<string, string[]> = { customer: ['c_since'], history: ['h_date'], orders: ['o_entry_d'], order_line: ['ol_delivery_d'] };
  const out: Record<string, unknown> = {};
  for (const table of ['warehouse', 'district', 'customer', 'history', 'item', 'stock', 'new_order', 'orders', 'order_line']) {
    const cols = stamps[table] ?? [];
    const pairs = cols.length ? cols.map((col) => `'${col}', x.${col} IS NOT NULL`).join(', ') : `'_', true`;
    const j = `to_jsonb(x) || jsonb_build_object(${pairs})`;
    out[table] = (await c.query(`SELECT coalesce(jsonb_agg(j ORDER BY j::text), '[]') AS rows FROM (SELECT ${j} AS j FROM ${table} x) s`)).rows[0].rows;
  }
  return out;
}

/** The rows client.sql needs beyond the new-order ones: namesakes (one with bad credit) and an undelivered order. */
async function seedMore(): Promise<void> {
  const cust = `INSERT INTO customer (c_since, c_id, c_w_id, c_d_id, c_payment_cnt, c_delivery_cnt, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state,
                c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_data) VALUES`;
  await c.query(`${cust} (now(), 2, 1, 1, 0, 0, 'b', 'OE', 'PRIPRIPRI', 's1', 's2', 'c', 'st', '123451111', '1', 'BC', 50000, 0.1000, -10, 10, 'old data'),
                         (now(), 3, 1, 1, 0, 0, 'a', 'OE', 'PRIPRIPRI', 's1', 's2', 'c', 'st', '123451111', '1', 'GC', 50000, 0.1000, -10, 10, 'data'),
                         (now(), 4, 1, 1, 0, 0, 'c', 'OE', 'PRIPRIPRI', 's1', 's2', 'c', 'st', '123451111', '1', 'GC', 50000, 0.1000, -10, 10, 'data'),
                         (now(), 5, 1, 1, 0, 0, 'd', 'OE', 'PRIPRIPRI', 's1', 's2', 'c', 'st', '123451111', '1', 'GC', 50000, 0.1000, -10, 10, 'data')`);
  await c.query(`INSERT INTO orders (o_entry_d, o_id, o_w_id, o_d_id, o_c_id, o_carrier_id, o_ol_cnt, o_all_local) VALUES (now(), 2999, 1, 1, 3, 4, 1, 1), (now(), 3000, 1, 1, 4, NULL, 2, 1)`);
  await c.query(`INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (3000, 1, 1)`);
  await c.query(`INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
                 VALUES (2999, 1, 1, 1, 5, 1, now(), 1, 6.25, 'x'), (3000, 1, 1, 1, 1, 1, NULL, 2, 2.50, 'x'), (3000, 1, 1, 2, 2, 1, NULL, 3, 7.50, 'x')`);
}

async function reseed(): Promise<void> {
  await c.query('TRUNCATE warehouse, district, customer, history, item, stock, new_order, orders, order_line');
  await seed();
  await seedMore();
}

/** The same transaction through functions.sql: its SQL, in a transaction rolled back after the snapshot. */
const FUNCTION_CALLS: { [K in TxType]: (i: TxInputs[K]) => [string, unknown[]] } = {
  neworder: (i) => ['SELECT neword($1, $2, $3, $4, $5, $6)', [i.w_id, i.d_id, i.c_id, i.lines.map((l) => l.i_id), i.lines.map((l) => l.supply_w_id), i.lines.map((l) => l.quantity)]],
  payment: (i) => ['SELECT payment($1, $2, $3, $4, $5, $6, $7, $8)', [i.w_id, i.d_id, i.c_w_id, i.c_d_id, i.c_id, i.byname, i.c_last, i.amount]],
  delivery: (i) => ['SELECT delivery($1, $2)', [i.w_id, i.carrier_id]],
  stocklevel: (i) => ['SELECT slev($1, $2, $3)', [i.w_id, i.d_id, i.threshold]],
  orderstatus: (i) => ['SELECT * FROM ostat($1, $2, $3, $4, $5)', [i.w_id, i.d_id, i.c_id, i.byname, i.c_last]],
};

const line = (i_id: number, quantity: number, supply_w_id = 1) => ({ i_id, supply_w_id, quantity });
const newOrder = (lines: ReturnType<typeof line>[]): TxInputs['neworder'] => ({ w_id: 1, max_w: 1, d_id: 1, c_id: 1, ol_cnt: lines.length, rollback: false, all_local: true, lines });
const CASES: { name: string; tx: TxType; input: TxInputs[TxType]; outcome: 'commit' | 'rollback' }[] = [
  { name: 'new order, distinct items', tx: 'neworder', input: newOrder([line(3, 1), line(5, 2), line(4, 10)]), outcome: 'commit' },
  { name: 'new order, a repeated item (+ 91 rule on the row as the previous line left it)', tx: 'neworder', input: newOrder([line(1, 6), line(2, 3), line(1, 6)]), outcome: 'commit' },
  { name: 'new order, an unused item (the 1% rollback: nothing written)', tx: 'neworder', input: newOrder([line(1, 1), line(2, 1), line(100001, 1)]), outcome: 'rollback' },
  { name: 'payment by id', tx: 'payment', input: { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, byname: false, c_last: '', amount: 42 }, outcome: 'commit' },
  { name: 'payment by name, bad credit (row ceil(4/2) by c_first; c_data prefixed)', tx: 'payment', input: { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 0, byname: true, c_last: 'PRIPRIPRI', amount: 4999 }, outcome: 'commit' },
  { name: 'delivery', tx: 'delivery', input: { w_id: 1, carrier_id: 7 }, outcome: 'commit' },
  { name: 'order status by name', tx: 'orderstatus', input: { w_id: 1, d_id: 1, c_id: 0, byname: true, c_last: 'PRIPRIPRI' }, outcome: 'commit' },
  { name: 'stock level', tx: 'stocklevel', input: { w_id: 1, d_id: 1, threshold: 16 }, outcome: 'commit' },
];

describe('client.sql (target.noStoredProcs) against functions.sql', () => {
  const vuClient = (options?: string) => new pg.Client({ host, port, user: 'postgres', password, database: DB, ...(options ? { options } : {}) });
  let vc: pg.Client;
  let vu: PgClientSqlVu;

  beforeAll(async () => {
    for (const sql of scriptStatements('functions.sql')) await c.query(sql);
    vc = vuClient();
    await vc.connect();
    vu = new PgClientSqlVu(vc, namedStatements('client.sql'), true);
  });
  afterAll(async () => {
    await vu?.close();
  });

  for (const k of CASES) {
    it(`${k.name}: the same rows as the function`, async () => {
      await reseed();
      const before = await snapshot();
      await c.query('BEGIN');
      let viaFunction: Record<string, unknown>;
      try {
        const [sql, values] = (FUNCTION_CALLS[k.tx] as (i: TxInputs[TxType]) => [string, unknown[]])(k.input);
        await c.query('SAVEPOINT f');
        await c.query(sql, values).catch(async (e: unknown) => {
          expect((e as { code?: string }).code).toBe('SLRBK');
          await c.query('ROLLBACK TO SAVEPOINT f');
        });
        viaFunction = await snapshot();
      } finally {
        await c.query('ROLLBACK');
      }
      expect(await vu.run(k.tx, k.input)).toBe(k.outcome);
      const viaClient = await snapshot();
      expect(viaClient).toEqual(viaFunction);
      if (k.tx === 'orderstatus' || k.tx === 'stocklevel' || k.outcome === 'rollback') expect(viaClient).toEqual(before);
      else expect(viaClient).not.toEqual(before);
      // The session is idle again (the transaction ended), ready for the next one.
      expect((await vc.query('SELECT pg_current_xact_id_if_assigned() AS x')).rows[0].x).toBeNull();
    });
  }

  it('the namesake is row ceil(n/2) by c_first: customer 2 of a, b, c, d', async () => {
    await reseed();
    await vu.run('payment', CASES[4]!.input as TxInputs['payment']);
    const r = (await c.query(`SELECT c_id, c_payment_cnt, left(c_data, 20) AS d FROM customer WHERE c_payment_cnt > 0`)).rows;
    expect(r).toEqual([{ c_id: 2, c_payment_cnt: 1, d: '2 1 1 1 1 4999.00 | ' }]);
  });

  it('a serialization failure (40001) rolls back, is classified retryable, and the retry writes the order once', async () => {
    await reseed();
    // REPEATABLE READ sessions get 40001 when a row they update was changed after their snapshot.
    const rr = vuClient('-c default_transaction_isolation=repeatable\\ read');
    await rr.connect();
    const rrVu = new PgClientSqlVu(rr, namedStatements('client.sql'), true);
    const blocker = vuClient();
    await blocker.connect();
    try {
      const input = CASES[0]!.input as TxInputs['neworder'];
      await blocker.query('BEGIN');
      await blocker.query('UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 1');
      const pid = (await rr.query('SELECT pg_backend_pid() AS p')).rows[0].p as number;
      const first = rrVu.run('neworder', input);
      // Wait until the VU's district UPDATE waits for the blocker's row lock, then commit the blocker.
      for (let n = 0; ; n++) {
        const waiting = (await c.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid])).rows[0]?.wait_event_type;
        if (waiting === 'Lock') break;
        if (n > 500) throw new Error('the VU never waited for the district row lock');
        await new Promise((r) => setTimeout(r, 10));
      }
      await blocker.query('COMMIT');
      const err = await first.then(() => null, (e: unknown) => e);
      expect((err as { code?: string }).code).toBe('40001');
      expect(classifyError(err)).toMatchObject({ kind: 'serialization', retryable: true, code: '40001' });
      // Rolled back: nothing of the first try is left, and the session is usable.
      expect((await c.query('SELECT count(*)::int AS n FROM orders WHERE o_id >= 3001')).rows[0].n).toBe(0);
      expect(await rrVu.run('neworder', input)).toBe('commit');
      expect((await c.query('SELECT d_next_o_id, d_ytd::text AS ytd FROM district WHERE d_id = 1')).rows[0]).toEqual({ d_next_o_id: 3002, ytd: '1.00' });
      expect((await c.query('SELECT o_id, o_ol_cnt FROM orders WHERE o_id >= 3001')).rows).toEqual([{ o_id: 3001, o_ol_cnt: 3 }]);
      expect((await c.query('SELECT count(*)::int AS n FROM order_line WHERE ol_o_id = 3001')).rows[0].n).toBe(3);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
      await rrVu.close();
    }
  });
});
