import { describe, expect, it } from 'vitest';
import { TproccVuInputs, type NewOrderInput } from '@sledge/core';
import { DEFAULT_MIX } from '@sledge/protocol';
import { LINE_WIDTH, db2Call, newOrderCall, outcomeOf, outputsByName, packFixed, paymentCall } from './params.js';

const wl = new TproccVuInputs(42, { warehouses: 4, position: 2, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX });

/** What NEWORD does with SUBSTR: line i's value at offset (i-1)*width. */
const unpack = (s: string, width: number, count: number) => Array.from({ length: count }, (_, i) => Number(s.substr(i * width, width)));

describe('Db2 parameter binding', () => {
  it('packs fixed-width digits and refuses what does not fit', () => {
    expect(packFixed([12, 345, 100001], 6)).toBe('000012000345100001');
    expect(packFixed([5, 10], 2)).toBe('0510');
    expect(() => packFixed([1000000], 6)).toThrow(/6 digits/);
    expect(() => packFixed([-1], 2)).toThrow();
    expect(() => packFixed([1.5], 2)).toThrow();
  });

  it('sends order lines that the procedure decodes back exactly', () => {
    for (let k = 0; k < 200; k++) {
      const no = wl.input('neworder');
      const call = newOrderCall(no);
      const n = no.lines.length;
      expect(call.params[4]).toBe(n);
      expect(unpack(call.params[6] as string, LINE_WIDTH.item, n)).toEqual(no.lines.map((l) => l.i_id));
      expect(unpack(call.params[7] as string, LINE_WIDTH.supply, n)).toEqual(no.lines.map((l) => l.supply_w_id));
      expect(unpack(call.params[8] as string, LINE_WIDTH.quantity, n)).toEqual(no.lines.map((l) => l.quantity));
      expect((call.params[6] as string).length).toBeLessThanOrEqual(90);
      expect((call.params[8] as string).length).toBeLessThanOrEqual(30);
    }
  });

  it('carries the rollback item and reads the outcome from OUT values', () => {
    let no: NewOrderInput = wl.input('neworder');
    while (!no.rollback) no = wl.input('neworder');
    const call = newOrderCall(no);
    expect((call.params[6] as string).slice(-6)).toBe('100001');
    expect(call.outputs).toEqual(['rolled_back', 'o_id', 'total_amount']);
    expect(call.params.slice(9)).toEqual([
      { ParamType: 'OUTPUT', DataType: 'BIGINT', Data: 0 },
      { ParamType: 'OUTPUT', DataType: 'BIGINT', Data: 0 },
      { ParamType: 'OUTPUT', DataType: 'CHAR', Data: '', Length: 32 },
    ]);
    expect(outcomeOf('neworder', outputsByName(call, [1, null, '0.00']))).toBe('rollback');
    expect(outcomeOf('neworder', outputsByName(call, [0, 3002, '123.45']))).toBe('commit');
    expect(outcomeOf('stocklevel', { stock_count: 4 })).toBe('commit');
  });

  it('binds payment by id and by name', () => {
    const byId = paymentCall({ w_id: 1, d_id: 2, c_w_id: 3, c_d_id: 4, c_id: 5, byname: false, c_last: '', amount: 1234 });
    expect(byId.sql).toBe('CALL payment(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    expect(byId.params.slice(0, 8)).toEqual([1, 2, 3, 4, 5, 0, 1234, '']);
    const byName = paymentCall({ w_id: 1, d_id: 2, c_w_id: 1, c_d_id: 2, c_id: 77, byname: true, c_last: 'ESEPRIBAR', amount: 10 });
    expect(byName.params.slice(4, 8)).toEqual([0, 1, 10, 'ESEPRIBAR']);
    expect(byName.outputs).toEqual(['out_c_id', 'c_balance', 'c_credit']);
  });

  it('binds delivery, stock level and order status', () => {
    expect(db2Call('delivery', { w_id: 3, carrier_id: 7 }).params.slice(0, 2)).toEqual([3, 7]);
    expect(db2Call('stocklevel', { w_id: 2, d_id: 9, threshold: 15 }).sql).toBe('CALL slev(?, ?, ?, ?)');
    const os = db2Call('orderstatus', { w_id: 1, d_id: 3, c_id: 12, byname: false, c_last: '' });
    expect(os.params.slice(0, 5)).toEqual([1, 3, 12, 0, '']);
    expect(os.outputs).toEqual(['out_c_id', 'o_id', 'line_count']);
  });
});
