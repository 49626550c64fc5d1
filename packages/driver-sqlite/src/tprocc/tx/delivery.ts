import { DIST_PER_WARE, type DeliveryInput } from '@sledge/core';
import type { Db } from '../../engine/library.js';
import { namedSql } from '../sql.js';
import { missingRow, type TxBody } from './body.js';

/**
 * Delivery (TPC-C 2.7), all ten districts in one transaction: delete the
 * oldest NEW_ORDER row (skip a district that has none), set the order's
 * carrier, stamp its lines delivered, and add their total to the customer's
 * balance with one more delivery.
 */
export function deliveryBody(db: Db): TxBody<DeliveryInput> {
  const sql = namedSql('procedures.sql');
  const takeNewOrder = db.prepare<{ w_id: number; d_id: number }, number>(sql.delivery_new_order).pluck();
  const order = db.prepare<{ carrier_id: number; w_id: number; d_id: number; o_id: number }, number>(sql.delivery_order).pluck();
  const orderLines = db.prepare<{ w_id: number; d_id: number; o_id: number }>(sql.delivery_order_lines);
  const customer = db.prepare<{ w_id: number; d_id: number; o_id: number; c_id: number }>(sql.delivery_customer);

  return {
    write: true,
    run(input) {
      const { w_id, carrier_id } = input;
      for (let d_id = 1; d_id <= DIST_PER_WARE; d_id++) {
        const o_id = takeNewOrder.get({ w_id, d_id });
        if (o_id === undefined) continue;
        const c_id = order.get({ carrier_id, w_id, d_id, o_id });
        if (c_id === undefined) throw missingRow(`order ${o_id} of district ${d_id}, warehouse ${w_id}`);
        orderLines.run({ w_id, d_id, o_id });
        customer.run({ w_id, d_id, o_id, c_id });
      }
      return 'commit';
    },
  };
}
