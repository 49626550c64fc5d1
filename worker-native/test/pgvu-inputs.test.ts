import { TproccVuInputs, thinkSeconds, type TxInputs } from '@sledge/core';
import { DEFAULT_MIX, type TproccMix, type TxType } from '@sledge/protocol';
import { describe, expect, it } from 'vitest';
import { loadPgVuLoop, type InputStreamOptions } from '../lib/index.js';

const loop = loadPgVuLoop();
if (!loop.available) throw new Error(`the native VU loop must be built for these tests (libpq-dev): ${loop.reason}`);
const native = loop;

const DRAWS = 10_000;

/**
 * Text parameters as node-postgres sends driver-postgresql's txValues:
 * String(number), 'true'/'false', int[] as {a,b,c}, strings as they are.
 */
function pgText<K extends TxType>(tx: K, input: TxInputs[K]): string[] {
  const arr = (xs: number[]) => `{${xs.join(',')}}`;
  switch (tx) {
    case 'neworder': {
      const i = input as TxInputs['neworder'];
      return [i.w_id, i.d_id, i.c_id].map(String).concat([arr(i.lines.map((l) => l.i_id)), arr(i.lines.map((l) => l.supply_w_id)), arr(i.lines.map((l) => l.quantity))]);
    }
    case 'payment': {
      const i = input as TxInputs['payment'];
      return [String(i.w_id), String(i.d_id), String(i.c_w_id), String(i.c_d_id), String(i.c_id), String(i.byname), i.c_last, String(i.amount)];
    }
    case 'delivery': {
      const i = input as TxInputs['delivery'];
      return [String(i.w_id), String(i.carrier_id)];
    }
    case 'stocklevel': {
      const i = input as TxInputs['stocklevel'];
      return [String(i.w_id), String(i.d_id), String(i.threshold)];
    }
    case 'orderstatus': {
      const i = input as TxInputs['orderstatus'];
      return [String(i.w_id), String(i.d_id), String(i.c_id), String(i.byname), i.c_last];
    }
    default:
      throw new RangeError(String(tx));
  }
}

/** The same stream from core's TproccVuInputs, draw for draw (with thinking time draws when asked). */
function tsStream(o: InputStreamOptions, count: number, withThink: boolean) {
  const wl = new TproccVuInputs(o.seed, o);
  const draws = [];
  for (let n = 0; n < count; n++) {
    const type = wl.nextType();
    const input = wl.input(type);
    const d: { type: TxType; input: TxInputs[TxType]; params: string[]; thinkMs?: number } = { type, input, params: pgText(type, input) };
    // As TproccWorkload's stream: thinking seconds to the millisecond, slept in whole ms.
    if (withThink) d.thinkMs = Math.round(thinkSeconds(wl.rng, type, o.keyThink?.[type].thinkMeanSec) * 1000);
    draws.push(d);
  }
  return { homeW: wl.homeW, stockD: wl.stockD, warehouses: wl.warehouses, draws };
}

const CASES: { name: string; o: InputStreamOptions; think?: boolean }[] = [
  { name: 'seed 0, 1 warehouse, VU 2', o: { seed: 0, warehouses: 1, position: 2, activeVus: 1, allWarehouse: false, mix: DEFAULT_MIX, client: 0 } },
  { name: 'seed 12345, 10 warehouses, VU 7', o: { seed: 12345, warehouses: 10, position: 7, activeVus: 8, allWarehouse: false, mix: DEFAULT_MIX, client: 0 } },
  { name: 'seed 0xdeadbeef, 4 warehouses, VU 3, iteration 2', o: { seed: 0xdeadbeef, warehouses: 4, position: 3, activeVus: 4, allWarehouse: false, mix: DEFAULT_MIX, client: 200000 } },
  { name: 'seed 0xffffffff, allwarehouse 37 over 5 VUs, VU 4', o: { seed: 0xffffffff, warehouses: 37, position: 4, activeVus: 5, allWarehouse: true, mix: DEFAULT_MIX, client: 0 } },
  { name: 'seed 99, custom mix with a zero weight, async client 3', o: { seed: 99, warehouses: 2, position: 5, activeVus: 6, allWarehouse: false, mix: { neworder: 3, payment: 0, delivery: 2, stocklevel: 5, orderstatus: 7 } as TproccMix, client: 3 } },
  { name: 'seed 7, keying and thinking draws', o: { seed: 7, warehouses: 3, position: 2, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX, client: 0 }, think: true },
  {
    name: 'seed 8, thinking draws from an edited keyThink table (fractional means)',
    o: {
      seed: 8,
      warehouses: 2,
      position: 3,
      activeVus: 2,
      allWarehouse: false,
      mix: DEFAULT_MIX,
      client: 0,
      keyThink: {
        neworder: { keyingSec: 9, thinkMeanSec: 0.35 },
        payment: { keyingSec: 1.5, thinkMeanSec: 6 },
        delivery: { keyingSec: 2, thinkMeanSec: 0 },
        stocklevel: { keyingSec: 2, thinkMeanSec: 2.5 },
        orderstatus: { keyingSec: 2, thinkMeanSec: 1234.5 },
      },
    },
    think: true,
  },
];

describe('native VU inputs == core TproccVuInputs inputs', () => {
  for (const c of CASES) {
    it(`${c.name}: ${DRAWS} draws`, () => {
      const want = tsStream(c.o, DRAWS, c.think ?? false);
      const got = native.testInputs(c.o, DRAWS, c.think ?? false);
      expect(got.homeW).toBe(want.homeW);
      expect(got.stockD).toBe(want.stockD);
      expect(got.warehouses).toEqual(want.warehouses);
      expect(got.draws).toHaveLength(DRAWS);
      // First difference only, so a failure names the draw instead of dumping 10,000.
      const bad = got.draws.findIndex((d, i) => JSON.stringify(d) !== JSON.stringify(normalise(want.draws[i]!)));
      if (bad >= 0) expect({ draw: bad, ...got.draws[bad] }).toEqual({ draw: bad, ...normalise(want.draws[bad]!) });
      // Every type of the mix occurs, with both rollback flags and both name choices: the comparison covered them.
      const types = new Set(got.draws.map((d) => d.type));
      for (const [t, w] of Object.entries(c.o.mix)) expect(types.has(t as TxType)).toBe(w > 0);
      if (c.o.mix.neworder > 0) expect(got.draws.some((d) => d.type === 'neworder' && (d.input as TxInputs['neworder']).rollback)).toBe(true);
    });
  }

  it('formats parameters the way the PostgreSQL driver binds them', () => {
    const s = native.testInputs(CASES[1]!.o, 200, false);
    const no = s.draws.find((d) => d.type === 'neworder')!;
    const i = no.input as TxInputs['neworder'];
    expect(no.params).toHaveLength(6);
    expect(no.params[3]).toBe(`{${i.lines.map((l) => l.i_id).join(',')}}`);
    const pay = s.draws.find((d) => d.type === 'payment' && (d.input as TxInputs['payment']).byname)!;
    expect(pay.params[5]).toBe('true');
    expect(pay.params[6]).toMatch(/^[A-Z]+$/);
    const payId = s.draws.find((d) => d.type === 'payment' && !(d.input as TxInputs['payment']).byname)!;
    expect(payId.params.slice(5, 7)).toEqual(['false', '']);
  });
});

/** JSON round trip of a TS draw with keys in the native order (the comparison is by value). */
function normalise(d: { type: TxType; input: TxInputs[TxType]; params: string[]; thinkMs?: number }) {
  return JSON.parse(JSON.stringify(d)) as typeof d;
}
