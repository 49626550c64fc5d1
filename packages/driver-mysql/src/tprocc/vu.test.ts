import { describe, expect, it } from 'vitest';
import { mariadbDriver, mysqlDriver } from '../index.js';
import { mariadbTarget, mysqlTarget } from '../testing/live.js';
import { callParams, rolledBack } from './vu.js';

describe('procedure arguments', () => {
  it('new order passes its lines as three comma-separated lists', () => {
    const p = callParams('neworder', {
      w_id: 3, max_w: 9, d_id: 4, c_id: 77, ol_cnt: 3, rollback: true, all_local: false,
      lines: [
        { i_id: 5, supply_w_id: 3, quantity: 1 },
        { i_id: 99999, supply_w_id: 8, quantity: 10 },
        { i_id: 100001, supply_w_id: 3, quantity: 4 },
      ],
    });
    expect(p).toEqual([3, 4, 77, 3, 0, '5,99999,100001', '3,8,3', '1,10,4']);
  });

  it('payment, order status, delivery and stock level in procedure order', () => {
    expect(callParams('payment', { w_id: 1, d_id: 2, c_w_id: 3, c_d_id: 4, c_id: 5, byname: true, c_last: 'BARBAR', amount: 42 })).toEqual([1, 2, 3, 4, 5, 1, 'BARBAR', 42]);
    expect(callParams('orderstatus', { w_id: 1, d_id: 2, c_id: 5, byname: false, c_last: '' })).toEqual([1, 2, 5, 0, '']);
    expect(callParams('delivery', { w_id: 6, carrier_id: 9 })).toEqual([6, 9]);
    expect(callParams('stocklevel', { w_id: 6, d_id: 1, threshold: 15 })).toEqual([6, 1, 15]);
  });

  it("reads NEWORD's rolled_back flag from the CALL result", () => {
    expect(rolledBack([[{ rolled_back: 1, o_id: 3001 }], { affectedRows: 0 }])).toBe(true);
    expect(rolledBack([[{ rolled_back: '0', o_id: 3001 }], { affectedRows: 0 }])).toBe(false);
    expect(rolledBack({ affectedRows: 0 })).toBe(false);
    expect(rolledBack([])).toBe(false);
  });
});

describe('driver surface', () => {
  it('probe loads mysql2 and reports its version', async () => {
    const p = await mysqlDriver.probe();
    expect(p.available).toBe(true);
    expect(p.libraryVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('features follow the target', () => {
    expect(mariadbDriver.features(mariadbTarget('x'))).toEqual({
      storedProcedures: true, tpmSource: 'engine', bulkFormat: 'csv', asyncSessions: true, createsDatabase: true, partition: true,
    });
    expect(mysqlDriver.features(mysqlTarget('x', { noStoredProcs: true })).storedProcedures).toBe(false);
    expect(mysqlDriver.workloads.tprocc!.bulkFormat(mysqlTarget('x'))).toBe('csv');
    expect([mysqlDriver.engine, mariadbDriver.engine, mysqlDriver.library]).toEqual(['mysql', 'mariadb', 'mysql2']);
  });
});
