import type { TproccMix, TxType } from '@sledge/protocol';
import { Rng, streamKey } from '../random.js';
import { CUST_PER_DIST, DIST_PER_WARE, MAXITEMS, NURAND_C, TAG } from './constants.js';
import { Mix } from './mix.js';
import { allWarehouseSet } from './plan.js';
import { nurand, randomLastName } from './rules.js';

/** One order line chosen by the client (used by engines that run new order in TS or client-side SQL). */
export interface OrderLineInput {
  i_id: number;
  supply_w_id: number;
  quantity: number;
}

export interface NewOrderInput {
  w_id: number;
  max_w: number;
  d_id: number;
  c_id: number;
  ol_cnt: number;
  /** 1% of orders: the last line names item 100001 and the transaction rolls back (spec 2.4.1.4). */
  rollback: boolean;
  all_local: boolean;
  lines: OrderLineInput[];
}
export interface PaymentInput {
  w_id: number;
  d_id: number;
  c_w_id: number;
  c_d_id: number;
  c_id: number;
  byname: boolean;
  c_last: string;
  /** Integer U[1,5000] as HammerDB draws it. */
  amount: number;
}
export interface OrderStatusInput {
  w_id: number;
  d_id: number;
  c_id: number;
  byname: boolean;
  c_last: string;
}
export interface DeliveryInput {
  w_id: number;
  carrier_id: number;
}
export interface StockLevelInput {
  w_id: number;
  d_id: number;
  threshold: number;
}

export interface TxInputs {
  neworder: NewOrderInput;
  payment: PaymentInput;
  delivery: DeliveryInput;
  stocklevel: StockLevelInput;
  orderstatus: OrderStatusInput;
}
export type TxInput<T extends TxType = TxType> = TxInputs[T];

export interface VuOptions {
  /** Database warehouse count: max(w_id). */
  warehouses: number;
  /** HammerDB VU position: 2.. for workers. */
  position: number;
  /** Active (worker) VU count, for allwarehouse. */
  activeVus: number;
  allWarehouse: boolean;
  mix: TproccMix;
  /** Sub-client number in async mode (0 otherwise). */
  client?: number;
}

/**
 * Per-VU state and input generation (hammerdb.md §6.2). The home warehouse
 * and stock-level district are drawn once per VU and kept for its life.
 *
 * HammerDB departures followed here: new-order c_id is uniform U[1,3000]
 * (spec: NURand(1023,1,3000)); payment amount is an integer U[1,5000]
 * (spec: 1.00..5000.00); the same NURand C (123) is used at load and at run.
 */
export class TproccVuInputs {
  readonly rng: Rng;
  readonly homeW: number;
  readonly stockD: number;
  readonly warehouses: number[] | null;
  private readonly W: number;
  private readonly mix: Mix;

  constructor(seed: number, o: VuOptions) {
    this.rng = new Rng(streamKey(seed, TAG.vu, o.position, o.client ?? 0));
    this.W = o.warehouses;
    this.homeW = this.rng.int(1, o.warehouses);
    this.stockD = this.rng.int(1, DIST_PER_WARE);
    this.warehouses = o.allWarehouse ? allWarehouseSet(o.position, o.activeVus, o.warehouses) : null;
    this.mix = new Mix(o.mix);
  }

  nextType(): TxType {
    return this.mix.next(this.rng);
  }

  /** The warehouse of the next transaction: home, or uniform over the VU's set with allwarehouse. */
  private w(): number {
    const ws = this.warehouses;
    return ws ? ws[this.rng.int(0, ws.length - 1)]! : this.homeW;
  }

  input<T extends TxType>(t: T): TxInputs[T] {
    switch (t) {
      case 'neworder':
        return this.newOrder() as TxInputs[T];
      case 'payment':
        return this.payment() as TxInputs[T];
      case 'delivery':
        return { w_id: this.w(), carrier_id: this.rng.int(1, 10) } as TxInputs[T];
      case 'stocklevel':
        return { w_id: this.w(), d_id: this.stockD, threshold: this.rng.int(10, 20) } as TxInputs[T];
      case 'orderstatus':
        return this.orderStatus() as TxInputs[T];
      default:
        throw new RangeError(`unknown transaction ${String(t)}`);
    }
  }

  private newOrder(): NewOrderInput {
    const r = this.rng;
    const w_id = this.w();
    const d_id = r.int(1, DIST_PER_WARE);
    const c_id = r.int(1, CUST_PER_DIST);
    const ol_cnt = r.int(5, 15);
    const rollback = r.int(1, 100) === 1;
    const lines: OrderLineInput[] = new Array<OrderLineInput>(ol_cnt);
    let all_local = true;
    for (let i = 0; i < ol_cnt; i++) {
      let supply = w_id;
      if (this.W > 1 && r.int(1, 100) === 1) {
        do supply = r.int(1, this.W);
        while (supply === w_id);
        all_local = false;
      }
      lines[i] = { i_id: rollback && i === ol_cnt - 1 ? MAXITEMS + 1 : r.int(1, MAXITEMS), supply_w_id: supply, quantity: r.int(1, 10) };
    }
    return { w_id, max_w: this.W, d_id, c_id, ol_cnt, rollback, all_local, lines };
  }

  private payment(): PaymentInput {
    const r = this.rng;
    const w_id = this.w();
    const d_id = r.int(1, DIST_PER_WARE);
    let c_w_id = w_id;
    let c_d_id = d_id;
    if (r.int(1, 100) > 85) {
      c_d_id = r.int(1, DIST_PER_WARE);
      if (this.W > 1) {
        do c_w_id = r.int(1, this.W);
        while (c_w_id === w_id);
      }
    }
    const byname = r.int(1, 100) <= 60;
    const c_last = byname ? randomLastName(r, NURAND_C) : '';
    const c_id = r.int(1, CUST_PER_DIST);
    const amount = r.int(1, 5000);
    return { w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount };
  }

  private orderStatus(): OrderStatusInput {
    const r = this.rng;
    const w_id = this.w();
    const d_id = r.int(1, DIST_PER_WARE);
    const byname = r.int(1, 100) <= 60;
    const c_last = byname ? randomLastName(r, NURAND_C) : '';
    const c_id = r.int(1, CUST_PER_DIST);
    return { w_id, d_id, c_id, byname, c_last };
  }
}

/** Keying time (s) before each transaction, when keyandthink is on (TPC-C 5.2.5.7; tprocc.keyThink overrides). */
export const KEYING_SECONDS: Record<TxType, number> = { neworder: 18, payment: 3, delivery: 2, stocklevel: 2, orderstatus: 2 };
/** Mean thinking time (s) after each transaction (TPC-C 5.2.5.7; tprocc.keyThink overrides). */
export const THINK_SECONDS: Record<TxType, number> = { neworder: 12, payment: 12, delivery: 10, stocklevel: 5, orderstatus: 5 };
/** TPC-C 5.2.5.4: the thinking time distribution may be truncated at 10 times its mean. */
export const THINK_TRUNCATE_FACTOR = 10;

/**
 * Thinking time in seconds (to the millisecond): -ln(U)·mean, negative
 * exponential with that mean (HammerDB draws |round(ln(U)·T)| whole seconds),
 * truncated at 10x the mean as TPC-C allows.
 */
export function thinkSeconds(rng: Rng, t: TxType, meanSec: number = THINK_SECONDS[t]): number {
  const u = 1 - rng.random(); // (0, 1]
  const s = Math.min(-Math.log(u) * meanSec, THINK_TRUNCATE_FACTOR * meanSec);
  return Math.round(s * 1000) / 1000;
}

export { nurand };
