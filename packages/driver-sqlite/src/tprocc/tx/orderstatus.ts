import type { OrderStatusInput } from '@sledge/core';
import type { Db } from '../../engine/library.js';
import { namedSql } from '../sql.js';
import { middleOf, missingRow, type TxBody } from './body.js';

interface CustomerRow {
  c_balance: number;
  c_first: string;
  c_middle: string;
  c_last: string;
}
interface OrderRow {
  o_id: number;
  o_entry_d: string;
  o_carrier_id: number | null;
}
interface LineRow {
  ol_i_id: number;
  ol_supply_w_id: number;
  ol_quantity: number;
  ol_amount: number | null;
  ol_delivery_d: string | null;
}

/**
 * Order status (TPC-C 2.6), read-only: the customer (by id, or the middle row
 * of its last name), its latest order and that order's lines.
 */
export function orderStatusBody(db: Db): TxBody<OrderStatusInput> {
  const sql = namedSql('procedures.sql');
  const idsByName = db.prepare<{ w_id: number; d_id: number; c_last: string }, number>(sql.ostat_customer_ids_by_name).pluck();
  const customer = db.prepare<{ w_id: number; d_id: number; c_id: number }, CustomerRow>(sql.ostat_customer);
  const lastOrder = db.prepare<{ w_id: number; d_id: number; c_id: number }, OrderRow>(sql.ostat_last_order);
  const orderLines = db.prepare<{ w_id: number; d_id: number; o_id: number }, LineRow>(sql.ostat_order_lines);

  return {
    write: false,
    run(input) {
      const { w_id, d_id } = input;
      let c_id = input.c_id;
      if (input.byname) {
        const id = middleOf(idsByName.all({ w_id, d_id, c_last: input.c_last }));
        if (id === undefined) throw missingRow(`customer named ${input.c_last} in district ${d_id}, warehouse ${w_id}`);
        c_id = id;
      }
      const c = customer.get({ w_id, d_id, c_id });
      if (!c) throw missingRow(`customer ${c_id} of district ${d_id}, warehouse ${w_id}`);
      const order = lastOrder.get({ w_id, d_id, c_id });
      if (order) orderLines.all({ w_id, d_id, o_id: order.o_id });
      return 'commit';
    },
  };
}
