import type { DeliveryInput, NewOrderInput, OrderStatusInput, PaymentInput, StockLevelInput, TxInputs, TxOutcome } from '@sledge/core';
import type { TxType } from '@sledge/protocol';
import type { IbmParam } from '../engine/library.js';

/** One CALL: parameter markers in order, IN values and OUT bind objects, and the OUT names in order. */
export interface Db2Call {
  procedure: string;
  sql: string;
  params: IbmParam[];
  outputs: string[];
}

type Spec = { name: string; value: number | string } | { name: string; out: 'int' } | { name: string; out: 'text'; length: number };

function call(procedure: string, specs: Spec[]): Db2Call {
  const params: IbmParam[] = specs.map((s) => {
    if ('value' in s) return s.value;
    return s.out === 'int' ? { ParamType: 'OUTPUT', DataType: 'BIGINT', Data: 0 } : { ParamType: 'OUTPUT', DataType: 'CHAR', Data: '', Length: s.length };
  });
  return {
    procedure,
    sql: `CALL ${procedure}(${specs.map(() => '?').join(', ')})`,
    params,
    outputs: specs.filter((s) => !('value' in s)).map((s) => s.name),
  };
}

/** Digits of fixed width, zero-padded: the order-line encoding NEWORD parses with SUBSTR. */
export function packFixed(values: readonly number[], width: number): string {
  return values
    .map((v) => {
      if (!Number.isInteger(v) || v < 0 || String(v).length > width) throw new RangeError(`${v} does not fit ${width} digits`);
      return String(v).padStart(width, '0');
    })
    .join('');
}

/** Widths of the NEWORD line strings: item id and supply warehouse 6 digits, quantity 2. */
export const LINE_WIDTH = { item: 6, supply: 6, quantity: 2 } as const;

/**
 * NEWORD: ibm_db cannot bind arrays to procedure parameters, so the client's
 * order lines travel as three fixed-width digit strings.
 */
export function newOrderCall(i: NewOrderInput): Db2Call {
  return call('neword', [
    { name: 'w_id', value: i.w_id },
    { name: 'max_w_id', value: i.max_w },
    { name: 'd_id', value: i.d_id },
    { name: 'c_id', value: i.c_id },
    { name: 'o_ol_cnt', value: i.lines.length },
    { name: 'o_all_local', value: i.all_local ? 1 : 0 },
    { name: 'ol_i_ids', value: packFixed(i.lines.map((l) => l.i_id), LINE_WIDTH.item) },
    { name: 'ol_supply_ids', value: packFixed(i.lines.map((l) => l.supply_w_id), LINE_WIDTH.supply) },
    { name: 'ol_quantities', value: packFixed(i.lines.map((l) => l.quantity), LINE_WIDTH.quantity) },
    { name: 'rolled_back', out: 'int' },
    { name: 'o_id', out: 'int' },
    { name: 'total_amount', out: 'text', length: 32 },
  ]);
}

export function paymentCall(i: PaymentInput): Db2Call {
  return call('payment', [
    { name: 'w_id', value: i.w_id },
    { name: 'd_id', value: i.d_id },
    { name: 'c_w_id', value: i.c_w_id },
    { name: 'c_d_id', value: i.c_d_id },
    { name: 'c_id', value: i.byname ? 0 : i.c_id },
    { name: 'byname', value: i.byname ? 1 : 0 },
    { name: 'h_amount', value: i.amount },
    { name: 'c_last', value: i.byname ? i.c_last : '' },
    { name: 'out_c_id', out: 'int' },
    { name: 'c_balance', out: 'text', length: 32 },
    { name: 'c_credit', out: 'text', length: 2 },
  ]);
}

export function deliveryCall(i: DeliveryInput): Db2Call {
  return call('delivery', [
    { name: 'w_id', value: i.w_id },
    { name: 'o_carrier_id', value: i.carrier_id },
    { name: 'delivered', out: 'int' },
  ]);
}

export function stockLevelCall(i: StockLevelInput): Db2Call {
  return call('slev', [
    { name: 'w_id', value: i.w_id },
    { name: 'd_id', value: i.d_id },
    { name: 'threshold', value: i.threshold },
    { name: 'stock_count', out: 'int' },
  ]);
}

export function orderStatusCall(i: OrderStatusInput): Db2Call {
  return call('ostat', [
    { name: 'w_id', value: i.w_id },
    { name: 'd_id', value: i.d_id },
    { name: 'c_id', value: i.byname ? 0 : i.c_id },
    { name: 'byname', value: i.byname ? 1 : 0 },
    { name: 'c_last', value: i.byname ? i.c_last : '' },
    { name: 'out_c_id', out: 'int' },
    { name: 'o_id', out: 'int' },
    { name: 'line_count', out: 'int' },
  ]);
}

export function db2Call<K extends TxType>(tx: K, input: TxInputs[K]): Db2Call {
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

/** OUT values (in CALL order) by name. */
export function outputsByName(c: Db2Call, values: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  c.outputs.forEach((name, i) => (out[name] = values[i]));
  return out;
}

/** NEWORD reports its specified rollback through p_rolled_back; every other call that returns committed. */
export function outcomeOf(tx: TxType, outputs: Readonly<Record<string, unknown>>): TxOutcome {
  return tx === 'neworder' && Number(outputs['rolled_back']) === 1 ? 'rollback' : 'commit';
}
