import { describe, expect, it } from 'vitest';
import { TproccVuInputs, type NewOrderInput } from '@sledge/core';
import { DEFAULT_MIX } from '@sledge/protocol';
import { newOrderCall, outcomeOf, paymentCall, procCall } from './params.js';

const wl = new TproccVuInputs(42, { warehouses: 4, position: 2, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX });
const value = (call: ReturnType<typeof procCall>, name: string) => call.params.find((p) => p.name === name)?.value;

describe('SQL Server parameter binding', () => {
  it('sends the client order lines as a numbered table-valued parameter', () => {
    let no = wl.input('neworder');
    while (no.rollback) no = wl.input('neworder');
    const call = newOrderCall(no);
    expect(call.procedure).toBe('dbo.neword');
    expect(value(call, 'w_id')).toBe(no.w_id);
    expect(value(call, 'max_w_id')).toBe(4);
    expect(value(call, 'o_ol_cnt')).toBe(no.lines.length);
    expect(value(call, 'o_all_local')).toBe(no.all_local ? 1 : 0);
    const tvp = call.params.find((p) => p.name === 'lines')!.tvp!;
    expect(tvp.typeName).toBe('order_line_list');
    expect(tvp.rows).toEqual(no.lines.map((l, i) => [i + 1, l.i_id, l.supply_w_id, l.quantity]));
    expect(call.params.filter((p) => p.output).map((p) => p.name)).toEqual(['rolled_back', 'o_id', 'total_amount']);
  });

  it('passes the rollback item 100001 on the last line', () => {
    let no: NewOrderInput = wl.input('neworder');
    while (!no.rollback) no = wl.input('neworder');
    const rows = newOrderCall(no).params.find((p) => p.name === 'lines')!.tvp!.rows;
    expect(rows[rows.length - 1]![1]).toBe(100001);
    expect(outcomeOf('neworder', { rolled_back: 1, o_id: null })).toBe('rollback');
    expect(outcomeOf('neworder', { rolled_back: 0, o_id: 3002 })).toBe('commit');
    expect(outcomeOf('payment', { out_c_id: 5 })).toBe('commit');
  });

  it('binds payment by id and by name', () => {
    const byId = paymentCall({ w_id: 1, d_id: 2, c_w_id: 3, c_d_id: 4, c_id: 5, byname: false, c_last: '', amount: 1234 });
    expect(byId.params.map((p) => [p.name, p.value])).toEqual([
      ['w_id', 1], ['d_id', 2], ['c_w_id', 3], ['c_d_id', 4], ['c_id', 5], ['byname', 0], ['h_amount', 1234], ['c_last', ''],
      ['out_c_id', null], ['c_balance', null], ['c_credit', null],
    ]);
    const byName = paymentCall({ w_id: 1, d_id: 2, c_w_id: 1, c_d_id: 2, c_id: 77, byname: true, c_last: 'BARBARBAR', amount: 1 });
    expect(value(byName, 'byname')).toBe(1);
    expect(value(byName, 'c_id')).toBe(0);
    expect(value(byName, 'c_last')).toBe('BARBARBAR');
    expect(byName.params.find((p) => p.name === 'h_amount')).toMatchObject({ type: 'numeric', precision: 6, scale: 2 });
  });

  it('binds delivery, stock level and order status', () => {
    expect(procCall('delivery', { w_id: 3, carrier_id: 7 }).params.map((p) => p.value)).toEqual([3, 7, null]);
    const sl = procCall('stocklevel', { w_id: 2, d_id: 9, threshold: 15 });
    expect(sl.procedure).toBe('dbo.slev');
    expect(sl.params.map((p) => p.value)).toEqual([2, 9, 15, null]);
    const os = procCall('orderstatus', { w_id: 1, d_id: 3, c_id: 12, byname: true, c_last: 'OUGHTPRIABLE' });
    expect(os.procedure).toBe('dbo.ostat');
    expect(os.params.map((p) => p.value)).toEqual([1, 3, 0, 1, 'OUGHTPRIABLE', null, null, null]);
  });

  it('builds a call for every transaction the workload produces', () => {
    for (let i = 0; i < 500; i++) {
      const t = wl.nextType();
      const call = procCall(t, wl.input(t));
      for (const p of call.params) if (!p.output && p.type !== 'tvp') expect(p.value, `${call.procedure} @${p.name}`).not.toBeNull();
    }
  });
});
