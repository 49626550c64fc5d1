import type { TproccTable } from '@sledge/protocol';
import { Rng, streamKey } from '../random.js';
import { rowOut, type BulkFormat, type RowOut, type Value } from '../bulk/encode.js';
import {
  CUST_PER_DIST,
  DIST_PER_WARE,
  FIRST_UNDELIVERED_O_ID,
  MAXITEMS,
  NURAND_C,
  ORD_PER_DIST,
  TAG,
} from './constants.js';
import { alphaFixed, alphaString, decimal, lastName, makeOriginal, nurand, originalSet, phone, zip } from './rules.js';

/**
 * A unit of generated data. Units are independent: each has its own PRNG
 * stream derived from (seed, kind, w, d/from), so the same seed yields the
 * same rows however warehouses are split across build workers.
 */
export type TproccUnit =
  | { kind: 'item'; from: number; to: number }
  | { kind: 'warehouse'; w: number }
  | { kind: 'stock'; w: number; from: number; to: number }
  | { kind: 'district'; w: number }
  /** CUSTOMER and HISTORY rows of one district. */
  | { kind: 'customer'; w: number; d: number }
  /** ORDERS, NEW_ORDER and ORDER_LINE rows of one district. */
  | { kind: 'orders'; w: number; d: number };

export interface GenContext {
  seed: number;
  /** 'YYYY-MM-DD HH:MM:SS', used for c_since, h_date, o_entry_d, ol_delivery_d. */
  timestamp: string;
}

export interface GeneratedTable {
  table: TproccTable;
  rows: number;
  /** pg-text/csv: the encoded rows; tuples: arrays of values in TPROCC_COLUMNS order. */
  data: string | Uint8Array | Value[][];
}

/**
 * HammerDB departures from the TPC-C specification, and what Sledge does:
 * - c_credit is BC for 50% of customers (spec: 10%). Followed, so payment does
 *   as much c_data work as under HammerDB.
 * - c_discount and w_tax/d_tax have 2 decimals (spec: 4). Followed.
 * - o_c_id comes from a shuffle with a swap bug, not a permutation. A bug: Sledge
 *   uses a true Fisher-Yates permutation of 1..3000 as the spec requires.
 * - ol_amount is random for delivered orders and 0 for undelivered ones (spec:
 *   the reverse). A bug: Sledge follows the spec (0.00 when o_id < 2101, else
 *   0.01..9999.99).
 * - "original" positions are 10000 draws with replacement (≈9.5%, spec ≈10%). Followed.
 */
export class TproccGenerator {
  private itemOriginal: Uint8Array | undefined;
  private stockOriginalW = -1;
  private stockOriginal: Uint8Array | undefined;
  private readonly v: Value[] = [];

  constructor(
    private readonly ctx: GenContext,
    private readonly format: BulkFormat,
  ) {}

  generate(unit: TproccUnit): GeneratedTable[] {
    switch (unit.kind) {
      case 'item':
        return [this.items(unit.from, unit.to)];
      case 'warehouse':
        return [this.warehouse(unit.w)];
      case 'stock':
        return [this.stock(unit.w, unit.from, unit.to)];
      case 'district':
        return [this.districts(unit.w)];
      case 'customer':
        return this.customers(unit.w, unit.d);
      case 'orders':
        return this.orders(unit.w, unit.d);
    }
  }

  private out(): RowOut {
    return rowOut(this.format);
  }

  private items(from: number, to: number): GeneratedTable {
    const { seed } = this.ctx;
    this.itemOriginal ??= originalSet(new Rng(streamKey(seed, TAG.itemOriginal)), MAXITEMS);
    const orig = this.itemOriginal;
    const rng = new Rng(streamKey(seed, TAG.item, from));
    const o = this.out();
    const v = this.v;
    v.length = 5;
    for (let i = from; i <= to; i++) {
      v[0] = i;
      v[1] = rng.int(1, 10000);
      v[2] = alphaString(rng, 14, 24);
      v[3] = decimal(rng.int(100, 10000), 2);
      let data = alphaString(rng, 26, 50);
      if (orig[i] === 1) data = makeOriginal(rng, data);
      v[4] = data;
      o.row(v);
    }
    return { table: 'item', rows: o.rows, data: o.take() };
  }

  private address(rng: Rng, v: Value[], at: number): void {
    v[at] = alphaString(rng, 10, 20);
    v[at + 1] = alphaString(rng, 10, 20);
    v[at + 2] = alphaString(rng, 10, 20);
    v[at + 3] = alphaFixed(rng, 2);
    v[at + 4] = zip(rng);
  }

  private warehouse(w: number): GeneratedTable {
    const rng = new Rng(streamKey(this.ctx.seed, TAG.warehouse, w));
    const o = this.out();
    const v = this.v;
    v.length = 9;
    v[0] = w;
    v[1] = alphaString(rng, 6, 10);
    this.address(rng, v, 2);
    v[7] = decimal(rng.int(10, 20), 2);
    v[8] = '300000.00';
    o.row(v);
    return { table: 'warehouse', rows: o.rows, data: o.take() };
  }

  private stock(w: number, from: number, to: number): GeneratedTable {
    const { seed } = this.ctx;
    if (this.stockOriginalW !== w || !this.stockOriginal) {
      this.stockOriginal = originalSet(new Rng(streamKey(seed, TAG.stockOriginal, w)), MAXITEMS);
      this.stockOriginalW = w;
    }
    const orig = this.stockOriginal;
    const rng = new Rng(streamKey(seed, TAG.stock, w, from));
    const o = this.out();
    const v = this.v;
    v.length = 17;
    for (let i = from; i <= to; i++) {
      v[0] = i;
      v[1] = w;
      v[2] = rng.int(10, 100);
      for (let k = 0; k < 10; k++) v[3 + k] = alphaFixed(rng, 24);
      let data = alphaString(rng, 26, 50);
      if (orig[i] === 1) data = makeOriginal(rng, data);
      v[13] = data;
      v[14] = 0;
      v[15] = 0;
      v[16] = 0;
      o.row(v);
    }
    return { table: 'stock', rows: o.rows, data: o.take() };
  }

  private districts(w: number): GeneratedTable {
    const rng = new Rng(streamKey(this.ctx.seed, TAG.district, w));
    const o = this.out();
    const v = this.v;
    v.length = 11;
    for (let d = 1; d <= DIST_PER_WARE; d++) {
      v[0] = d;
      v[1] = w;
      v[2] = alphaString(rng, 6, 10);
      this.address(rng, v, 3);
      v[8] = decimal(rng.int(10, 20), 2);
      v[9] = '30000.00';
      v[10] = ORD_PER_DIST + 1;
      o.row(v);
    }
    return { table: 'district', rows: o.rows, data: o.take() };
  }

  private customers(w: number, d: number): GeneratedTable[] {
    const ts = this.ctx.timestamp;
    const rng = new Rng(streamKey(this.ctx.seed, TAG.customer, w, d));
    const co = this.out();
    const ho = this.out();
    const v = this.v;
    const h: Value[] = new Array<Value>(8);
    for (let c = 1; c <= CUST_PER_DIST; c++) {
      v.length = 21;
      v[0] = c;
      v[1] = d;
      v[2] = w;
      v[3] = alphaString(rng, 8, 16);
      v[4] = 'OE';
      v[5] = c <= 1000 ? lastName(c - 1) : lastName(nurand(rng, 255, 0, 999, NURAND_C));
      this.address(rng, v, 6);
      v[11] = phone(rng);
      v[12] = ts;
      v[13] = rng.int(0, 1) === 0 ? 'BC' : 'GC';
      v[14] = '50000.00';
      v[15] = decimal(rng.int(0, 50), 2);
      v[16] = '-10.00';
      v[17] = '10.00';
      v[18] = 1;
      v[19] = 0;
      v[20] = alphaString(rng, 300, 500);
      co.row(v);
      h[0] = c;
      h[1] = d;
      h[2] = w;
      h[3] = d;
      h[4] = w;
      h[5] = ts;
      h[6] = '10.00';
      h[7] = alphaString(rng, 12, 24);
      ho.row(h);
    }
    return [
      { table: 'customer', rows: co.rows, data: co.take() },
      { table: 'history', rows: ho.rows, data: ho.take() },
    ];
  }

  private orders(w: number, d: number): GeneratedTable[] {
    const ts = this.ctx.timestamp;
    const rng = new Rng(streamKey(this.ctx.seed, TAG.orders, w, d));
    // A true permutation of customer ids 1..3000 (Fisher-Yates).
    const perm = new Int32Array(CUST_PER_DIST);
    for (let i = 0; i < CUST_PER_DIST; i++) perm[i] = i + 1;
    for (let i = CUST_PER_DIST - 1; i > 0; i--) {
      const j = rng.int(0, i);
      const t = perm[i]!;
      perm[i] = perm[j]!;
      perm[j] = t;
    }
    const oo = this.out();
    const no = this.out();
    const lo = this.out();
    const ov: Value[] = new Array<Value>(8);
    const nv: Value[] = new Array<Value>(3);
    const lv: Value[] = new Array<Value>(10);
    for (let o = 1; o <= ORD_PER_DIST; o++) {
      const delivered = o < FIRST_UNDELIVERED_O_ID;
      const carrier = delivered ? rng.int(1, 10) : null;
      const olCnt = rng.int(5, 15);
      ov[0] = o;
      ov[1] = d;
      ov[2] = w;
      ov[3] = perm[o - 1]!;
      ov[4] = ts;
      ov[5] = carrier;
      ov[6] = olCnt;
      ov[7] = 1;
      oo.row(ov);
      if (!delivered) {
        nv[0] = o;
        nv[1] = d;
        nv[2] = w;
        no.row(nv);
      }
      for (let l = 1; l <= olCnt; l++) {
        lv[0] = o;
        lv[1] = d;
        lv[2] = w;
        lv[3] = l;
        lv[4] = rng.int(1, MAXITEMS);
        lv[5] = w;
        lv[6] = delivered ? ts : null;
        lv[7] = 5;
        lv[8] = delivered ? '0.00' : decimal(rng.int(1, 999999), 2);
        lv[9] = alphaFixed(rng, 24);
        lo.row(lv);
      }
    }
    return [
      { table: 'orders', rows: oo.rows, data: oo.take() },
      { table: 'new_order', rows: no.rows, data: no.take() },
      { table: 'order_line', rows: lo.rows, data: lo.take() },
    ];
  }
}
