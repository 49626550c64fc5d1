import type { NewOrderInput } from '@sledge/core';
import type { Db } from '../../engine/library.js';
import { namedSql } from '../sql.js';
import { missingRow, type TxBody } from './body.js';

interface CustomerWarehouse {
  c_discount: number;
  c_last: string;
  c_credit: string;
  w_tax: number;
}
interface DistrictRow {
  o_id: number;
  d_tax: number;
}
interface ItemRow {
  i_price: number;
  i_name: string;
  i_data: string;
}
interface StockRow {
  s_data: string;
  dist_info: string;
}

/**
 * New order (TPC-C 2.4): customer and warehouse tax, take the district's next
 * order id, insert ORDERS and NEW_ORDER, then per line read the item, take
 * the stock and insert ORDER_LINE. An unknown item (the client's 1% rollback
 * case, item 100001 on the last line) rolls everything back: d_next_o_id
 * does not advance and no row stays.
 */
export function newOrderBody(db: Db): TxBody<NewOrderInput> {
  const sql = namedSql('procedures.sql');
  const customerWarehouse = db.prepare<{ w_id: number; d_id: number; c_id: number }, CustomerWarehouse>(sql.neword_customer_warehouse);
  const district = db.prepare<{ w_id: number; d_id: number }, DistrictRow>(sql.neword_district);
  const order = db.prepare<{ w_id: number; d_id: number; o_id: number; c_id: number; ol_cnt: number; all_local: number }>(sql.neword_order);
  const newOrder = db.prepare<{ w_id: number; d_id: number; o_id: number }>(sql.neword_new_order);
  const item = db.prepare<{ i_id: number }, ItemRow>(sql.neword_item);
  const stock = db.prepare<{ quantity: number; remote: number; supply_w_id: number; i_id: number; d_id: number }, StockRow>(sql.neword_stock);
  const orderLine = db.prepare<{
    w_id: number;
    d_id: number;
    o_id: number;
    number: number;
    i_id: number;
    supply_w_id: number;
    quantity: number;
    price: number;
    w_tax: number;
    d_tax: number;
    discount: number;
    dist_info: string;
  }>(sql.neword_order_line);

  return {
    write: true,
    run(input) {
      const { w_id, d_id, c_id, lines } = input;
      const cw = customerWarehouse.get({ w_id, d_id, c_id });
      if (!cw) throw missingRow(`customer ${c_id} of district ${d_id}, warehouse ${w_id}`);
      const d = district.get({ w_id, d_id });
      if (!d) throw missingRow(`district ${d_id} of warehouse ${w_id}`);
      const o_id = d.o_id;
      order.run({ w_id, d_id, o_id, c_id, ol_cnt: lines.length, all_local: input.all_local ? 1 : 0 });
      newOrder.run({ w_id, d_id, o_id });
      for (let n = 0; n < lines.length; n++) {
        const line = lines[n]!;
        const it = item.get({ i_id: line.i_id });
        if (!it) return 'rollback';
        const s = stock.get({
          quantity: line.quantity,
          remote: line.supply_w_id === w_id ? 0 : 1,
          supply_w_id: line.supply_w_id,
          i_id: line.i_id,
          d_id,
        });
        if (!s) throw missingRow(`stock of item ${line.i_id} in warehouse ${line.supply_w_id}`);
        orderLine.run({
          w_id,
          d_id,
          o_id,
          number: n + 1,
          i_id: line.i_id,
          supply_w_id: line.supply_w_id,
          quantity: line.quantity,
          price: it.i_price,
          w_tax: cw.w_tax,
          d_tax: d.d_tax,
          discount: cw.c_discount,
          dist_info: s.dist_info,
        });
      }
      return 'commit';
    },
  };
}
