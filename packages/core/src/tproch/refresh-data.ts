/**
 * TPROC-H refresh data (RF1 new sales, RF2 old sales) as dbgen -U makes it.
 */
import { SledgeError } from '@sledge/protocol';
import type { TprochNewOrder } from './hooks.js';
import { TprochGenerator, tprochOrderKey, tprochSizes } from './generate.js';

/** Checks an update set number (1-based). */
function checkUpdate(update: number): void {
  if (!Number.isInteger(update) || update < 1 || update > 9999) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `update set must be an integer in 1..9999, not ${String(update)}`, { field: 'update' });
  }
}

/**
 * Where update set u's rows come from, as dbgen -U generates them: order
 * indexes (u−1)·n+1 .. u·n (n = sizes.updateOrders); the order streams run on
 * after the base orders, the line streams after the first 100·trunc(orders/100)
 * orders' lines (dbgen's set_state(ORDER, sf, 100, 101) moves the line streams
 * only for the 100 full chunks); new keys carry sequence 1 + trunc(u/1000),
 * deleted keys sequence trunc(u/1000). (hammerdb.md §10.5 says u div 100;
 * dbgen's 10000 / UPD_PCT = 1000 is followed.)
 */
export function tprochUpdateRange(sf: number, update: number) {
  checkUpdate(update);
  const s = tprochSizes(sf);
  const n = s.updateOrders;
  const from = (update - 1) * n + 1;
  return {
    from,
    to: update * n,
    insertSeq: 1 + Math.floor(update / 1000),
    deleteSeq: Math.floor(update / 1000),
    orderRowsBefore: s.orders + (update - 1) * n,
    lineRowsBefore: 100 * Math.floor(s.orders / 100) + (update - 1) * n,
  };
}

/** RF1 (new sales) rows of update set `update`: each order with its lines, values in TPROCH_COLUMNS order. */
export function tprochNewSales(sf: number, update: number): TprochNewOrder[] {
  const r = tprochUpdateRange(sf, update);
  const g = new TprochGenerator(sf, 'tuples');
  const out: TprochNewOrder[] = [];
  let seen = 0;
  g.orders(r.from, r.to, r.insertSeq, r.orderRowsBefore, r.lineRowsBefore, ({ order, lines }) => {
    out.push({ order: order.tuplesFrom(order.rows - 1)[0]!, lineitems: lines.tuplesFrom(seen) });
    seen = lines.rows;
  });
  return out;
}

/** RF2 (old sales) order keys of update set `update`. */
export function tprochOldSalesKeys(sf: number, update: number): number[] {
  const r = tprochUpdateRange(sf, update);
  const keys: number[] = [];
  for (let i = r.from; i <= r.to; i++) keys.push(tprochOrderKey(i, r.deleteSeq));
  return keys;
}
