import type { DeliveryInput, NewOrderInput, OrderStatusInput, PaymentInput, StockLevelInput, TxInputs, TxOutcome } from '@sledge/core';
import type { TxType } from '@sledge/protocol';
import type { BoundParam } from '../engine/params.js';

/** One RPC call of a TPROC-C procedure. */
export interface ProcCall {
  procedure: string;
  params: BoundParam[];
}

const int = (name: string, value: number): BoundParam => ({ name, type: 'int', value });
const outInt = (name: string): BoundParam => ({ name, type: 'int', value: null, output: true });

/** Columns of dbo.order_line_list, in declaration order. */
export const ORDER_LINE_LIST_COLUMNS = ['ol_number', 'ol_i_id', 'ol_supply_w_id', 'ol_quantity'] as const;

/**
 * NEWORD: the client's order lines travel as one table-valued parameter
 * (dbo.order_line_list), numbered 1..n in the client's order; o_ol_cnt is
 * the number of lines sent.
 */
export function newOrderCall(i: NewOrderInput): ProcCall {
  const rows = i.lines.map((l, k) => [k + 1, l.i_id, l.supply_w_id, l.quantity]);
  return {
    procedure: 'dbo.neword',
    params: [
      int('w_id', i.w_id),
      int('max_w_id', i.max_w),
      int('d_id', i.d_id),
      int('c_id', i.c_id),
      int('o_ol_cnt', i.lines.length),
      int('o_all_local', i.all_local ? 1 : 0),
      { name: 'lines', type: 'tvp', value: null, tvp: { schema: 'dbo', typeName: 'order_line_list', columns: ORDER_LINE_LIST_COLUMNS, rows } },
      outInt('rolled_back'),
      outInt('o_id'),
      { name: 'total_amount', type: 'numeric', value: null, output: true, precision: 12, scale: 2 },
    ],
  };
}

export function paymentCall(i: PaymentInput): ProcCall {
  return {
    procedure: 'dbo.payment',
    params: [
      int('w_id', i.w_id),
      int('d_id', i.d_id),
      int('c_w_id', i.c_w_id),
      int('c_d_id', i.c_d_id),
      int('c_id', i.byname ? 0 : i.c_id),
      int('byname', i.byname ? 1 : 0),
      { name: 'h_amount', type: 'numeric', value: i.amount, precision: 6, scale: 2 },
      { name: 'c_last', type: 'varchar', value: i.byname ? i.c_last : '', length: 16 },
      outInt('out_c_id'),
      { name: 'c_balance', type: 'numeric', value: null, output: true, precision: 12, scale: 2 },
      { name: 'c_credit', type: 'char', value: null, output: true, length: 2 },
    ],
  };
}

export function deliveryCall(i: DeliveryInput): ProcCall {
  return { procedure: 'dbo.delivery', params: [int('w_id', i.w_id), int('o_carrier_id', i.carrier_id), outInt('delivered')] };
}

export function stockLevelCall(i: StockLevelInput): ProcCall {
  return { procedure: 'dbo.slev', params: [int('w_id', i.w_id), int('d_id', i.d_id), int('threshold', i.threshold), outInt('stock_count')] };
}

export function orderStatusCall(i: OrderStatusInput): ProcCall {
  return {
    procedure: 'dbo.ostat',
    params: [
      int('w_id', i.w_id),
      int('d_id', i.d_id),
      int('c_id', i.byname ? 0 : i.c_id),
      int('byname', i.byname ? 1 : 0),
      { name: 'c_last', type: 'varchar', value: i.byname ? i.c_last : '', length: 16 },
      outInt('out_c_id'),
      outInt('o_id'),
      outInt('line_count'),
    ],
  };
}

/** The RPC for a transaction. */
export function procCall<K extends TxType>(tx: K, input: TxInputs[K]): ProcCall {
  switch (tx) {
    case 'neworder':
      return newOrderCall(input as NewOrderInput);
    case 'payment':
      return paymentCall(input as PaymentInput);
    case 'delivery':
      return deliveryCall(input as DeliveryInput);
    case 'stocklevel':
      return stockLevelCall(input as StockLevelInput);
    case 'orderstatus':
      return orderStatusCall(input as OrderStatusInput);
    default:
      throw new RangeError(`unknown transaction ${String(tx)}`);
  }
}

/** NEWORD reports its specified rollback through @rolled_back; every other call that returns commits. */
export function outcomeOf(tx: TxType, outputs: Readonly<Record<string, unknown>>): TxOutcome {
  return tx === 'neworder' && Number(outputs['rolled_back']) === 1 ? 'rollback' : 'commit';
}
