import type { PaymentInput } from '@sledge/core';
import type { Db } from '../../engine/library.js';
import { namedSql } from '../sql.js';
import { middleOf, missingRow, type TxBody } from './body.js';

interface WarehouseRow {
  w_name: string;
}
interface DistrictRow {
  d_name: string;
}
interface CustomerRow {
  c_credit: string;
  c_balance: number;
}

/**
 * Payment (TPC-C 2.5): add the amount to w_ytd and d_ytd, pick the customer
 * by id or as the middle row of its last name, charge it (BC customers get
 * the payment prepended to c_data) and record a HISTORY row whose h_data is
 * w_name, four spaces, d_name.
 */
export function paymentBody(db: Db): TxBody<PaymentInput> {
  const sql = namedSql('procedures.sql');
  const warehouse = db.prepare<{ amount: number; w_id: number }, WarehouseRow>(sql.payment_warehouse);
  const district = db.prepare<{ amount: number; w_id: number; d_id: number }, DistrictRow>(sql.payment_district);
  const idsByName = db.prepare<{ c_w_id: number; c_d_id: number; c_last: string }, number>(sql.payment_customer_ids_by_name).pluck();
  const customer = db.prepare<
    { amount: number; w_id: number; d_id: number; c_w_id: number; c_d_id: number; c_id: number },
    CustomerRow
  >(sql.payment_customer);
  const history = db.prepare<{
    c_id: number;
    c_d_id: number;
    c_w_id: number;
    d_id: number;
    w_id: number;
    amount: number;
    w_name: string;
    d_name: string;
  }>(sql.payment_history);

  return {
    write: true,
    run(input) {
      const { w_id, d_id, c_w_id, c_d_id, amount } = input;
      const w = warehouse.get({ amount, w_id });
      if (!w) throw missingRow(`warehouse ${w_id}`);
      const d = district.get({ amount, w_id, d_id });
      if (!d) throw missingRow(`district ${d_id} of warehouse ${w_id}`);
      let c_id = input.c_id;
      if (input.byname) {
        const id = middleOf(idsByName.all({ c_w_id, c_d_id, c_last: input.c_last }));
        if (id === undefined) throw missingRow(`customer named ${input.c_last} in district ${c_d_id}, warehouse ${c_w_id}`);
        c_id = id;
      }
      const c = customer.get({ amount, w_id, d_id, c_w_id, c_d_id, c_id });
      if (!c) throw missingRow(`customer ${c_id} of district ${c_d_id}, warehouse ${c_w_id}`);
      history.run({ c_id, c_d_id, c_w_id, d_id, w_id, amount, w_name: w.w_name, d_name: d.d_name });
      return 'commit';
    },
  };
}
