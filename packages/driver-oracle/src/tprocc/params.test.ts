import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { TproccVuInputs, type NewOrderInput } from '@sledge/core';
import { DEFAULT_MIX } from '@sledge/protocol';
import type { OracleDb } from '../engine/library.js';
import { newOrderCall, outcomeOf, paymentCall, plsqlCall } from './params.js';
import { oraBinds } from './vu.js';

const oracledb = createRequire(import.meta.url)('oracledb') as OracleDb;
const wl = new TproccVuInputs(42, { warehouses: 4, position: 2, activeVus: 2, allWarehouse: false, mix: DEFAULT_MIX });

describe('Oracle parameter binding', () => {
  it('binds new order lines as three associative arrays', () => {
    let no = wl.input('neworder');
    while (no.rollback) no = wl.input('neworder');
    const call = newOrderCall(no);
    expect(call.sql.startsWith('BEGIN neword(:w_id, :max_w_id, :d_id, :c_id, :o_ol_cnt, :o_all_local, :ol_i_ids,')).toBe(true);
    const b = oraBinds(call.binds, oracledb);
    expect(b['ol_i_ids']).toEqual({ dir: oracledb.BIND_IN, type: oracledb.NUMBER, val: no.lines.map((l) => l.i_id) });
    expect(b['ol_supply_ids']).toMatchObject({ val: no.lines.map((l) => l.supply_w_id) });
    expect(b['ol_quantities']).toMatchObject({ val: no.lines.map((l) => l.quantity) });
    expect(b['o_ol_cnt']).toMatchObject({ val: no.lines.length });
    expect(b['rolled_back']).toEqual({ dir: oracledb.BIND_OUT, type: oracledb.NUMBER });
  });

  it('carries the rollback item and reads the outcome', () => {
    let no: NewOrderInput = wl.input('neworder');
    while (!no.rollback) no = wl.input('neworder');
    const ids = newOrderCall(no).binds.find((b) => b.name === 'ol_i_ids');
    expect(ids?.dir === 'in' && ids.kind === 'number[]' ? ids.value.at(-1) : null).toBe(100001);
    expect(outcomeOf('neworder', { rolled_back: 1, o_id: null })).toBe('rollback');
    expect(outcomeOf('neworder', { rolled_back: 0, o_id: 3001 })).toBe('commit');
    expect(outcomeOf('delivery', { delivered: 10 })).toBe('commit');
  });

  it('binds payment by id and by name', () => {
    const byName = oraBinds(paymentCall({ w_id: 1, d_id: 2, c_w_id: 1, c_d_id: 5, c_id: 9, byname: true, c_last: 'PRICALLYBAR', amount: 4321 }).binds, oracledb);
    expect(byName['c_last']).toEqual({ dir: oracledb.BIND_IN, type: oracledb.STRING, val: 'PRICALLYBAR' });
    expect(byName['byname']).toMatchObject({ val: 1 });
    expect(byName['c_id']).toMatchObject({ val: 0 });
    expect(byName['h_amount']).toMatchObject({ type: oracledb.NUMBER, val: 4321 });
    expect(byName['c_credit']).toEqual({ dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 2 });
    const byId = oraBinds(paymentCall({ w_id: 1, d_id: 2, c_w_id: 1, c_d_id: 5, c_id: 9, byname: false, c_last: '', amount: 1 }).binds, oracledb);
    expect(byId['c_id']).toMatchObject({ val: 9 });
    expect(byId['byname']).toMatchObject({ val: 0 });
  });

  it('binds delivery, stock level and order status', () => {
    expect(plsqlCall('delivery', { w_id: 3, carrier_id: 7 }).sql).toBe('BEGIN delivery(:w_id, :o_carrier_id, :delivered); END;');
    expect(plsqlCall('stocklevel', { w_id: 2, d_id: 9, threshold: 15 }).sql).toBe('BEGIN slev(:w_id, :d_id, :threshold, :stock_count); END;');
    const os = oraBinds(plsqlCall('orderstatus', { w_id: 1, d_id: 3, c_id: 12, byname: false, c_last: '' }).binds, oracledb);
    expect(Object.keys(os)).toEqual(['w_id', 'd_id', 'c_id', 'byname', 'c_last', 'out_c_id', 'o_id', 'line_count']);
    expect(os['c_id']).toMatchObject({ val: 12 });
  });

  it('binds every transaction of a workload', () => {
    for (let i = 0; i < 300; i++) {
      const t = wl.nextType();
      const binds = oraBinds(plsqlCall(t, wl.input(t)).binds, oracledb);
      for (const [name, b] of Object.entries(binds)) if (typeof b === 'object' && b && b.dir === oracledb.BIND_IN) expect(b.val, name).not.toBeUndefined();
    }
  });
});
