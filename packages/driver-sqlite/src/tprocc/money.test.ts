import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng, TproccVuInputs, evaluateCheck, type AdminSession, type PaymentInput } from '@sledge/core';
import { DEFAULT_MIX } from '@sledge/protocol';
import { driver } from '../index.js';
import { loadLibrary, type Db } from '../engine/library.js';
import { buildSchema, tempTarget } from '../test-support/build.js';

const log = () => undefined;
const cents = (x: number) => Math.round(x * 100);
/** A double that is exactly the nearest double to a whole number of cents. */
const wholeCents = (x: number) => x === cents(x) / 100;

/**
 * Money stays exact to the cent: REAL columns rounded on every update.
 * 5000 payments (half with HammerDB's integer amounts, half with cents, which
 * is what drifts in plain double arithmetic), then C1 must hold exactly, not
 * merely within checkschema's half-cent tolerance.
 */
describe('money arithmetic', () => {
  const target = tempTarget('money');
  let admin: AdminSession;
  let raw: Db;

  beforeAll(async () => {
    await buildSchema(target, 1);
    admin = await driver.workloads.tprocc.openAdmin(target, log);
    raw = new (loadLibrary().ctor)(target.file, { readonly: true });
  });

  afterAll(async () => {
    raw?.close();
    await admin?.dropSchema();
    await admin?.close();
  });

  it('5000 payments keep w_ytd = sum(d_ytd) exactly and every balance in whole cents', async () => {
    const vu = await driver.workloads.tprocc.openVu(target, { vu: 2, log });
    const wl = new TproccVuInputs(31, { warehouses: 1, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX });
    const rng = new Rng(4711);
    let paidCents = 0;
    try {
      for (let i = 0; i < 5000; i++) {
        const p: PaymentInput = wl.input('payment');
        if (i % 2 === 1) p.amount = rng.int(1, 500000) / 100;
        expect(vu.run('payment', p)).toBe('commit');
        paidCents += cents(p.amount);
      }
    } finally {
      await vu.close();
    }
    const facts = await admin.checkFacts([1]);
    const w = facts.warehouses[0]!;
    expect(wholeCents(w.w_ytd)).toBe(true);
    expect(cents(w.w_ytd)).toBe(cents(w.sum_d_ytd));
    expect(cents(w.w_ytd)).toBe(30_000_000 + paidCents);
    expect(evaluateCheck(facts, 1).find((i) => i.name.startsWith('C1'))?.ok).toBe(true);

    const ytd = raw.prepare<[], number>('SELECT d_ytd FROM district WHERE d_w_id = 1').pluck().all();
    expect(ytd.every(wholeCents)).toBe(true);
    // Payments only: every customer's balance + year-to-date payment is still exactly 0 (-10.00 + 10.00 at load).
    expect(raw.prepare<[], number>('SELECT count(*) FROM customer WHERE c_balance + c_ytd_payment <> 0').pluck().get()).toBe(0);
    expect(raw.prepare<[], number>('SELECT count(*) FROM customer WHERE c_balance <> ROUND(c_balance, 2)').pluck().get()).toBe(0);
    const history = raw.prepare<[], number>('SELECT sum(h_amount) FROM history').pluck().get()!;
    expect(cents(history)).toBe(30000 * 1000 + paidCents);
    expect(raw.prepare<[], number>('SELECT count(*) FROM history').pluck().get()).toBe(35000);
  });

  it('new orders and deliveries keep order line amounts and balances in whole cents', async () => {
    const vu = await driver.workloads.tprocc.openVu(target, { vu: 3, log });
    const wl = new TproccVuInputs(32, { warehouses: 1, position: 3, activeVus: 1, allWarehouse: false, mix: { ...DEFAULT_MIX, delivery: 5 } });
    try {
      for (let i = 0; i < 1500; i++) {
        const t = wl.nextType();
        vu.run(t, wl.input(t));
      }
    } finally {
      await vu.close();
    }
    expect(raw.prepare<[], number>('SELECT count(*) FROM order_line WHERE ol_amount <> ROUND(ol_amount, 2)').pluck().get()).toBe(0);
    const balances = raw.prepare<[], number>('SELECT c_balance FROM customer WHERE c_delivery_cnt > 0').pluck().all();
    expect(balances.length).toBeGreaterThan(100);
    expect(balances.every(wholeCents)).toBe(true);
    // Five times the usual deliveries drain NEW_ORDER below its build-time minimum; the rest must hold.
    expect(evaluateCheck(await admin.checkFacts([1]), 1).filter((i) => !i.ok && i.name !== 'row counts')).toEqual([]);
  });
});
