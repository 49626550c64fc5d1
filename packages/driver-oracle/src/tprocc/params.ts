import type { DeliveryInput, NewOrderInput, OrderStatusInput, PaymentInput, StockLevelInput, TxInputs, TxOutcome } from '@sledge/core';
import type { TxType } from '@sledge/protocol';

/** A bind of a procedure call, independent of the oracledb constants (mapped by the VU session). */
export type BindSpec =
  | { name: string; dir: 'in'; kind: 'number'; value: number }
  | { name: string; dir: 'in'; kind: 'string'; value: string }
  /** A PL/SQL associative array (sledge_types.num_tab), element i = order line i. */
  | { name: string; dir: 'in'; kind: 'number[]'; value: number[] }
  | { name: string; dir: 'out'; kind: 'number' }
  | { name: string; dir: 'out'; kind: 'string'; maxSize: number };

export interface PlsqlCall {
  procedure: string;
  /** The anonymous block node-oracledb executes: BEGIN proc(:a, :b, ...); END; */
  sql: string;
  binds: BindSpec[];
}

const num = (name: string, value: number): BindSpec => ({ name, dir: 'in', kind: 'number', value });
const outNum = (name: string): BindSpec => ({ name, dir: 'out', kind: 'number' });

function call(procedure: string, binds: BindSpec[]): PlsqlCall {
  return { procedure, sql: `BEGIN ${procedure}(${binds.map((b) => `:${b.name}`).join(', ')}); END;`, binds };
}

/**
 * NEWORD: the client's order lines travel as three associative arrays of
 * the same length (items, supply warehouses, quantities); o_ol_cnt is the
 * number of lines sent.
 */
export function newOrderCall(i: NewOrderInput): PlsqlCall {
  return call('neword', [
    num('w_id', i.w_id),
    num('max_w_id', i.max_w),
    num('d_id', i.d_id),
    num('c_id', i.c_id),
    num('o_ol_cnt', i.lines.length),
    num('o_all_local', i.all_local ? 1 : 0),
    { name: 'ol_i_ids', dir: 'in', kind: 'number[]', value: i.lines.map((l) => l.i_id) },
    { name: 'ol_supply_ids', dir: 'in', kind: 'number[]', value: i.lines.map((l) => l.supply_w_id) },
    { name: 'ol_quantities', dir: 'in', kind: 'number[]', value: i.lines.map((l) => l.quantity) },
    outNum('rolled_back'),
    outNum('o_id'),
    outNum('total_amount'),
  ]);
}

export function paymentCall(i: PaymentInput): PlsqlCall {
  return call('payment', [
    num('w_id', i.w_id),
    num('d_id', i.d_id),
    num('c_w_id', i.c_w_id),
    num('c_d_id', i.c_d_id),
    num('c_id', i.byname ? 0 : i.c_id),
    num('byname', i.byname ? 1 : 0),
    num('h_amount', i.amount),
    { name: 'c_last', dir: 'in', kind: 'string', value: i.byname ? i.c_last : '' },
    outNum('out_c_id'),
    outNum('c_balance'),
    { name: 'c_credit', dir: 'out', kind: 'string', maxSize: 2 },
  ]);
}

export function deliveryCall(i: DeliveryInput): PlsqlCall {
  return call('delivery', [num('w_id', i.w_id), num('o_carrier_id', i.carrier_id), outNum('delivered')]);
}

export function stockLevelCall(i: StockLevelInput): PlsqlCall {
  return call('slev', [num('w_id', i.w_id), num('d_id', i.d_id), num('threshold', i.threshold), outNum('stock_count')]);
}

export function orderStatusCall(i: OrderStatusInput): PlsqlCall {
  return call('ostat', [
    num('w_id', i.w_id),
    num('d_id', i.d_id),
    num('c_id', i.byname ? 0 : i.c_id),
    num('byname', i.byname ? 1 : 0),
    { name: 'c_last', dir: 'in', kind: 'string', value: i.byname ? i.c_last : '' },
    outNum('out_c_id'),
    outNum('o_id'),
    outNum('line_count'),
  ]);
}

export function plsqlCall<K extends TxType>(tx: K, input: TxInputs[K]): PlsqlCall {
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

/** NEWORD reports its specified rollback through p_rolled_back; every other call that returns committed. */
export function outcomeOf(tx: TxType, outBinds: Readonly<Record<string, unknown>>): TxOutcome {
  return tx === 'neworder' && Number(outBinds['rolled_back']) === 1 ? 'rollback' : 'commit';
}
