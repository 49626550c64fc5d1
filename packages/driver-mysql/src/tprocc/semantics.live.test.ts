import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { TproccGenerator, itemUnits, type TxInputs, type TxOutcome, type VuSession } from '@sledge/core';
import type { TxType } from '@sledge/protocol';
import { MyAdmin } from './admin.js';
import { connect } from '../engine/connect.js';
import { MARIADB } from '../engine/flavour.js';
import { MyLoader } from '../engine/loader.js';
import { sqlFor } from './sqlfiles.js';
import { mariadbTarget, rootConnection } from '../testing/live.js';
import { ClientSqlVu } from './vu-client.js';
import { ProcedureVu, callStatements } from './vu.js';

/**
 * Exact TPC-C effects of each transaction, in every VU mode, on a small
 * schema: items 1..10000, warehouse 1 (stock 1..10000, district 1's
 * customers and orders) and warehouse 2 (stock 1..10000) for remote lines.
 * Each mode must leave the same effects, and count exactly one
 * Com_commit (or Com_rollback) per transaction on its session.
 */
const DB = 'sledge_mytest_sem';
const target = mariadbTarget(DB);
const sql = sqlFor(MARIADB);
const log = () => undefined;

let root: Connection;

async function rows(q: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [r] = await root.query<RowDataPacket[]>(q, params);
  return r;
}
async function row(q: string, params: unknown[] = []): Promise<RowDataPacket> {
  const r = (await rows(q, params))[0];
  if (!r) throw new Error(`no row: ${q}`);
  return r;
}

/** A decimal string as an integer count of 10^-scale units. */
function scaled(v: unknown, scale: number): bigint {
  const [int = '0', frac = ''] = String(v).split('.');
  const neg = int.startsWith('-');
  const digits = BigInt(int.replace('-', '') + frac.padEnd(scale, '0').slice(0, scale));
  return neg ? -digits : digits;
}

/** ROUND(qty * price * (1 + w_tax + d_tax) * (1 - c_discount), 2) in cents, exact. */
function amountCents(qty: number, price: unknown, wTax: unknown, dTax: unknown, disc: unknown): bigint {
  const num = BigInt(qty) * scaled(price, 2) * (10000n + scaled(wTax, 4) + scaled(dTax, 4)) * (10000n - scaled(disc, 4));
  const den = 100000000n;
  return (num * 2n + den) / (2n * den);
}

async function sessionCounters(c: Connection): Promise<{ commit: number; rollback: number }> {
  const [r] = await c.query<RowDataPacket[]>("SHOW SESSION STATUS WHERE Variable_name IN ('Com_commit', 'Com_rollback')");
  const get = (n: string) => Number(r.find((x) => x.Variable_name === n)?.Value ?? NaN);
  return { commit: get('Com_commit'), rollback: get('Com_rollback') };
}

beforeAll(async () => {
  root = await rootConnection();
  const admin = new MyAdmin(target, MARIADB, sql, log);
  try {
    await admin.dropSchema();
    await admin.createSchema({ warehouses: 2, buildVus: 1 });
    const loader = await MyLoader.open(target, MARIADB, log);
    const gen = new TproccGenerator({ seed: 77, timestamp: '2025-01-01 00:00:00' }, 'csv');
    try {
      await loader.load(gen.generate(itemUnits()[0]!));
      for (const w of [1, 2]) {
        await loader.load(gen.generate({ kind: 'warehouse', w }));
        await loader.load(gen.generate({ kind: 'stock', w, from: 1, to: 10000 }));
        await loader.load(gen.generate({ kind: 'district', w }));
      }
      await loader.load(gen.generate({ kind: 'customer', w: 1, d: 1 }));
      await loader.load(gen.generate({ kind: 'orders', w: 1, d: 1 }));
    } finally {
      await loader.close();
    }
    await admin.finishSchema({ warehouses: 2, buildVus: 1 });
  } finally {
    await admin.close();
  }
  await root.query(`USE ${DB}`);
}, 300_000);

afterAll(async () => {
  await root?.query(`DROP DATABASE IF EXISTS ${DB}`);
  await root?.end();
});

type Mode = { name: string; open: (c: Connection) => VuSession; named: boolean };
const MODES: Mode[] = [
  { name: 'CALL (text)', named: false, open: (c) => new ProcedureVu(c, callStatements(sql), false) },
  { name: 'CALL (prepared)', named: false, open: (c) => new ProcedureVu(c, callStatements(sql), true) },
  { name: 'client SQL (text)', named: true, open: (c) => new ClientSqlVu(c, sql, false) },
  { name: 'client SQL (prepared)', named: true, open: (c) => new ClientSqlVu(c, sql, true) },
];

describe.each(MODES)('transaction semantics: $name', (mode) => {
  let conn: Connection;
  let vu: VuSession;

  beforeAll(async () => {
    conn = await connect(target, MARIADB, { useDatabase: true, role: 'semantics', namedPlaceholders: mode.named });
    vu = mode.open(conn);
  });
  afterAll(async () => {
    await vu?.close();
  });

  /** Run one transaction and check that it counted exactly one commit or rollback on the session. */
  async function run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    const before = await sessionCounters(conn);
    const out = await vu.run(tx, input);
    const after = await sessionCounters(conn);
    expect({ commit: after.commit - before.commit, rollback: after.rollback - before.rollback }).toEqual(
      out === 'commit' ? { commit: 1, rollback: 0 } : { commit: 0, rollback: 1 },
    );
    return out;
  }

  it('new order: stock rule, counters, amounts, order rows', async () => {
    await root.query('UPDATE stock SET s_quantity = 50 WHERE s_w_id = 1 AND s_i_id = 11');
    await root.query('UPDATE stock SET s_quantity = 15 WHERE s_w_id = 1 AND s_i_id = 12');
    await root.query('UPDATE stock SET s_quantity = 40 WHERE s_w_id = 2 AND s_i_id = 13');
    const stockBefore = await rows('SELECT s_ytd, s_order_cnt, s_remote_cnt FROM stock WHERE (s_w_id, s_i_id) IN ((1, 11), (1, 12), (2, 13)) ORDER BY s_w_id, s_i_id');
    const w = await row('SELECT w_tax FROM warehouse WHERE w_id = 1');
    const c = await row('SELECT c_discount FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 7');
    const d1 = await row('SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 1 AND d_id = 1');
    const lines = [
      { i_id: 11, supply_w_id: 1, quantity: 5 },
      { i_id: 12, supply_w_id: 1, quantity: 10 },
      { i_id: 13, supply_w_id: 2, quantity: 3 },
    ];
    const out = await run('neworder', { w_id: 1, max_w: 2, d_id: 1, c_id: 7, ol_cnt: 3, rollback: false, all_local: false, lines });
    expect(out).toBe('commit');
    const o_id = Number(d1.d_next_o_id);
    expect(Number((await row('SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1')).d_next_o_id)).toBe(o_id + 1);

    const stock = await rows('SELECT s_quantity, s_ytd, s_order_cnt, s_remote_cnt FROM stock WHERE (s_w_id, s_i_id) IN ((1, 11), (1, 12), (2, 13)) ORDER BY s_w_id, s_i_id');
    expect(stock.map((s) => [s.s_quantity, s.s_ytd, s.s_order_cnt, s.s_remote_cnt])).toEqual([
      [45, Number(stockBefore[0]!.s_ytd) + 5, Number(stockBefore[0]!.s_order_cnt) + 1, 0], // 50 >= 5 + 10: 50 - 5
      [96, Number(stockBefore[1]!.s_ytd) + 10, Number(stockBefore[1]!.s_order_cnt) + 1, 0], // 15 < 10 + 10: 15 - 10 + 91
      [37, Number(stockBefore[2]!.s_ytd) + 3, Number(stockBefore[2]!.s_order_cnt) + 1, Number(stockBefore[2]!.s_remote_cnt) + 1],
    ]);

    const order = await row('SELECT o_c_id, o_carrier_id, o_ol_cnt, o_all_local FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = ?', [o_id]);
    expect(order).toMatchObject({ o_c_id: 7, o_carrier_id: null, o_ol_cnt: 3, o_all_local: 0 });
    expect((await rows('SELECT 1 FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = ?', [o_id])).length).toBe(1);
    const ol = await rows('SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info, ol_delivery_d FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = ? ORDER BY ol_number', [o_id]);
    expect(ol.length).toBe(3);
    for (const [k, l] of lines.entries()) {
      const price = (await row('SELECT i_price FROM item WHERE i_id = ?', [l.i_id])).i_price;
      const dist = (await row('SELECT s_dist_01 FROM stock WHERE s_w_id = ? AND s_i_id = ?', [l.supply_w_id, l.i_id])).s_dist_01;
      expect(ol[k]).toMatchObject({ ol_number: k + 1, ol_i_id: l.i_id, ol_supply_w_id: l.supply_w_id, ol_quantity: l.quantity, ol_dist_info: dist, ol_delivery_d: null });
      expect(scaled(ol[k]!.ol_amount, 2)).toBe(amountCents(l.quantity, price, w.w_tax, d1.d_tax, c.c_discount));
    }
  });

  it('new order with the unused item rolls the whole order back', async () => {
    const next = Number((await row('SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1')).d_next_o_id);
    const s = await row('SELECT s_quantity, s_ytd FROM stock WHERE s_w_id = 1 AND s_i_id = 21');
    const lines = [
      { i_id: 21, supply_w_id: 1, quantity: 4 },
      { i_id: 100001, supply_w_id: 1, quantity: 1 },
    ];
    expect(await run('neworder', { w_id: 1, max_w: 2, d_id: 1, c_id: 8, ol_cnt: 2, rollback: true, all_local: true, lines })).toBe('rollback');
    expect(Number((await row('SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1')).d_next_o_id)).toBe(next);
    expect(await row('SELECT s_quantity, s_ytd FROM stock WHERE s_w_id = 1 AND s_i_id = 21')).toEqual(s);
    expect((await rows('SELECT 1 FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = ?', [next])).length).toBe(0);
    expect((await rows('SELECT 1 FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = ?', [next])).length).toBe(0);
  });

  it('payment by last name: middle namesake, BC credit data, history', async () => {
    const name = await row(
      'SELECT c_last, COUNT(*) AS n FROM customer WHERE c_w_id = 1 AND c_d_id = 1 GROUP BY c_last HAVING COUNT(*) >= 4 ORDER BY c_last LIMIT 1',
    );
    const ids = (await rows('SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = ? ORDER BY c_first, c_id', [name.c_last])).map((r) => Number(r.c_id));
    const chosen = ids[Math.ceil(ids.length / 2) - 1]!;
    await root.query("UPDATE customer SET c_credit = 'BC' WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = ?", [chosen]);
    const before = await row('SELECT c_balance, c_ytd_payment, c_payment_cnt, c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = ?', [chosen]);
    const wd = await row('SELECT w_ytd, w_name, d_ytd, d_name FROM warehouse JOIN district ON d_w_id = w_id WHERE w_id = 1 AND d_id = 2');
    const histBefore = Number((await row('SELECT COUNT(*) AS n FROM history')).n);

    const input = { w_id: 1, d_id: 2, c_w_id: 1, c_d_id: 1, c_id: 1, byname: true, c_last: String(name.c_last), amount: 1234 };
    expect(await run('payment', input)).toBe('commit');

    const after = await row('SELECT c_balance, c_ytd_payment, c_payment_cnt, c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = ?', [chosen]);
    expect(scaled(after.c_balance, 2)).toBe(scaled(before.c_balance, 2) - 123400n);
    expect(scaled(after.c_ytd_payment, 2)).toBe(scaled(before.c_ytd_payment, 2) + 123400n);
    expect(after.c_payment_cnt).toBe(Number(before.c_payment_cnt) + 1);
    const prefix = `${chosen} 1 1 2 1 1234.00 | `;
    expect(after.c_data).toBe((prefix + String(before.c_data)).slice(0, 500));
    const wdAfter = await row('SELECT w_ytd, d_ytd FROM warehouse JOIN district ON d_w_id = w_id WHERE w_id = 1 AND d_id = 2');
    expect(scaled(wdAfter.w_ytd, 2)).toBe(scaled(wd.w_ytd, 2) + 123400n);
    expect(scaled(wdAfter.d_ytd, 2)).toBe(scaled(wd.d_ytd, 2) + 123400n);
    expect(Number((await row('SELECT COUNT(*) AS n FROM history')).n)).toBe(histBefore + 1);
    const h = await row('SELECT h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_amount, h_data FROM history WHERE h_c_id = ? AND h_amount = 1234 ORDER BY h_date DESC LIMIT 1', [chosen]);
    expect(h).toEqual({ h_c_id: chosen, h_c_d_id: 1, h_c_w_id: 1, h_d_id: 2, h_w_id: 1, h_amount: '1234.00', h_data: `${wd.w_name}    ${wd.d_name}` });
  });

  it('payment by id leaves good-credit data alone', async () => {
    await root.query("UPDATE customer SET c_credit = 'GC' WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 99");
    const before = await row('SELECT c_balance, c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 99');
    expect(await run('payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 99, byname: false, c_last: '', amount: 10 })).toBe('commit');
    const after = await row('SELECT c_balance, c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 99');
    expect(scaled(after.c_balance, 2)).toBe(scaled(before.c_balance, 2) - 1000n);
    expect(after.c_data).toBe(before.c_data);
  });

  it('order status and stock level read without changing anything', async () => {
    const sum = async () => row('SELECT SUM(d_next_o_id) AS n, (SELECT COUNT(*) FROM new_order) AS no FROM district');
    const before = await sum();
    const last = String((await row('SELECT c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 5')).c_last);
    expect(await run('orderstatus', { w_id: 1, d_id: 1, c_id: 5, byname: false, c_last: '' })).toBe('commit');
    expect(await run('orderstatus', { w_id: 1, d_id: 1, c_id: 0, byname: true, c_last: last })).toBe('commit');
    expect(await run('stocklevel', { w_id: 1, d_id: 1, threshold: 15 })).toBe('commit');
    expect(await sum()).toEqual(before);
  });

  it('delivery: oldest new order of each district that has one', async () => {
    const oldest = await row('SELECT MIN(no_o_id) AS o FROM new_order WHERE no_w_id = 1 AND no_d_id = 1');
    const o_id = Number(oldest.o);
    const o = await row('SELECT o_c_id FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = ?', [o_id]);
    const total = await row('SELECT SUM(ol_amount) AS s FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = ?', [o_id]);
    const cBefore = await row('SELECT c_balance, c_delivery_cnt FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = ?', [o.o_c_id]);
    const noBefore = Number((await row('SELECT COUNT(*) AS n FROM new_order')).n);

    expect(await run('delivery', { w_id: 1, carrier_id: 7 })).toBe('commit');

    expect(Number((await row('SELECT COUNT(*) AS n FROM new_order')).n)).toBe(noBefore - 1); // only district 1 of warehouse 1 has new orders
    expect((await rows('SELECT 1 FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = ?', [o_id])).length).toBe(0);
    expect((await row('SELECT o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = ?', [o_id])).o_carrier_id).toBe(7);
    const undelivered = await row('SELECT COUNT(*) AS n FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = ? AND ol_delivery_d IS NULL', [o_id]);
    expect(Number(undelivered.n)).toBe(0);
    const cAfter = await row('SELECT c_balance, c_delivery_cnt FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = ?', [o.o_c_id]);
    expect(scaled(cAfter.c_balance, 2)).toBe(scaled(cBefore.c_balance, 2) + scaled(total.s, 2));
    expect(cAfter.c_delivery_cnt).toBe(Number(cBefore.c_delivery_cnt) + 1);
  });
});
