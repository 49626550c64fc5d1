/**
 * The TPROC-H generator: the rows of dbgen (TPC-H 3.0.x) for a scale factor,
 * column for column, with dbgen's streams, draw order, text pool and
 * formulas. A unit is a range of rows; every stream is jumped to the range's
 * first row, so units are independent and any split across build workers
 * yields the same bytes as one sequential run.
 *
 * Where hammerdb.md §10.2 and dbgen differ, this follows dbgen ("same rows
 * as dbgen"):
 * - Phone numbers carry dbgen's country code prefix (10 + nation): "25-989-741-2988".
 * - p_mfgr/p_brand: "Manufacturer#m", "Brand#mn" (same), l_quantity an integer as dbgen prints it.
 * - Fractional SF < 1 scale each table as dbgen: trunc(trunc(1000·SF)·base/1000), at least 1;
 *   clerks stay 1..1000 (dbgen's scale is 1 there). SF ≥ 1 uses trunc(SF) as dbgen's integer scale.
 * - At SF ≥ 30000 dbgen switches o_custkey and l_partkey to a 64-bit LCG (and its own parallel
 *   mode then disagrees with its serial mode); Sledge keeps the 31-bit streams at every SF.
 */
import { SledgeError, type TprochTable } from '@sledge/protocol';
import type { BulkFormat } from '../bulk/encode.js';
import type { TprochGeneratedTable } from './hooks.js';
import { TPROCH_COLORS, TPROCH_DISTS, TPROCH_NATION_REGION, TPROCH_REGIONS, type TprochDist } from './dists.js';
import { SD, TPROCH_GROUP_STREAMS, TprochStreams } from './rng.js';
import { TPROCH_TEXT_POOL_SIZE, textBounds, tprochTextPool } from './text.js';
import { TprochTableOut } from './encode-tproch.js';

export type TprochUnit =
  | { kind: 'region' }
  | { kind: 'supplier' | 'customer' | 'part' | 'orders'; from: number; to: number };

export type TprochBaseTable = 'supplier' | 'customer' | 'part' | 'orders';

/** Row counts and dbgen's scale-dependent bounds for a scale factor. */
export interface TprochSizes {
  supplier: number;
  customer: number;
  part: number;
  orders: number;
  /** dbgen's integer `scale` (1 below SF 1). */
  scale: number;
  /** Orders per refresh update set (dbgen -U: trunc(orders/10000)·scale·10... see tprochUpdateOrders). */
  updateOrders: number;
}

const BASE = { supplier: 10000, customer: 150000, part: 200000, orders: 1500000 } as const;

function checkScale(sf: number): void {
  if (typeof sf !== 'number' || !Number.isFinite(sf) || sf <= 0 || sf > 100000) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `scale factor must be a number in (0, 100000], not ${String(sf)}`, { field: 'scaleFactor' });
  }
}

/** Table sizes as dbgen computes them for `-s sf`. */
export function tprochSizes(sf: number): TprochSizes {
  checkScale(sf);
  let scale: number;
  let rows: (base: number) => number;
  if (sf < 1) {
    // dbgen: scale = 1, each base scaled by int(1000·SF)/1000, at least 1.
    scale = 1;
    const k = Math.trunc(1000 * sf);
    rows = (base) => Math.max(1, Math.trunc((k * base) / 1000));
  } else {
    scale = Math.trunc(sf);
    rows = (base) => base * scale;
  }
  const orders = rows(BASE.orders);
  return {
    supplier: rows(BASE.supplier),
    customer: rows(BASE.customer),
    part: rows(BASE.part),
    orders,
    scale,
    // dbgen: rowcnt = (int)(tdefs[ORDER_LINE].base / 10000 * scale * UPD_PCT) (integer division first).
    updateOrders: Math.trunc(orders / 10000) * scale * 10,
  };
}

/** Row ranges of the units: supplier, customer, part (PARTSUPP = 4·part), orders (order index). */
export function tprochBaseRows(sf: number): Record<TprochBaseTable, number> {
  const s = tprochSizes(sf);
  return { supplier: s.supplier, customer: s.customer, part: s.part, orders: s.orders };
}

/** Exact LINEITEM row count: the sum of the order line counts (only the line-count stream is run). */
export function tprochLineitemCount(sf: number): number {
  const n = tprochSizes(sf).orders;
  const st = new TprochStreams([SD.O_LCNT]);
  st.seek(SD.O_LCNT, 0);
  let total = 0;
  // O_LCNT draws once per order, so its values run on without jumps.
  for (let i = 0; i < n; i++) total += st.unif(SD.O_LCNT, 1, 7);
  return total;
}

/** dbgen mk_sparse: keep the low 3 bits, insert the 2-bit update sequence above them. */
export const tprochOrderKey = (i: number, seq: number): number => Math.floor(i / 8) * 32 + seq * 8 + (i % 8);

/** dbgen rpb_routine: p_retailprice in cents. */
export const tprochRetailCents = (p: number): number => 90000 + (Math.floor(p / 10) % 20001) + (p % 1000) * 100;

/** dbgen PART_SUPP_BRIDGE: the s-th (0..3) supplier of part p among `suppliers`. */
export const tprochPartSupplier = (p: number, s: number, suppliers: number): number =>
  ((p + s * (Math.floor(suppliers / 4) + Math.floor((p - 1) / suppliers))) % suppliers) + 1;

// Dates: offset d from 1992-01-01 (dbgen's STARTDATE 92001) for d in 0..2556.
const TOTDATE = 2557;
export const TPROCH_DATES: readonly string[] = Array.from({ length: TOTDATE }, (_, d) => new Date(Date.UTC(1992, 0, 1 + d)).toISOString().slice(0, 10));
/** 1995-06-17 (dbgen CURRENTDATE 95168) as an offset. */
export const TPROCH_CURRENT_DATE = 1263;
/** Last order date offset: TOTDATE − (121 + 30) − 1. */
const ORDER_DATE_MAX = TOTDATE - 151 - 1;

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,';
const pad9 = (n: number): string => {
  const s = String(n);
  return s.length >= 9 ? s : '000000000'.slice(s.length) + s;
};

/** Average text lengths (dbgen dsstypes.h *_LEN). */
const LEN = { C_ADDR: 25, C_CMNT: 73, S_ADDR: 25, S_CMNT: 63, P_CMNT: 14, PS_CMNT: 124, O_CMNT: 49, L_CMNT: 27, N_CMNT: 72, R_CMNT: 72 } as const;

interface PoolText {
  slice(from: number, to: number): string;
}

function poolText(pool: Uint8Array): PoolText {
  const B = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (B) {
    const buf = B.from(pool.buffer, pool.byteOffset, pool.length);
    return { slice: (a, b) => buf.toString('latin1', a, b) };
  }
  return { slice: (a, b) => String.fromCharCode(...pool.subarray(a, b)) };
}

/** One order with its lines as values (tuples order), for refresh data and tests. */
export interface TprochOrderRows {
  order: TprochTableOut;
  lines: TprochTableOut;
}

/**
 * Throws a SledgeError naming the field for a unit that is not one of these
 * sizes' units; returns false for 'region', true for a row range.
 */
export function tprochCheckUnit(sizes: TprochSizes, u: TprochUnit): boolean {
  const kind = (u as { kind?: unknown } | null)?.kind;
  if (kind === 'region') return false;
  if (kind !== 'supplier' && kind !== 'customer' && kind !== 'part' && kind !== 'orders') {
    throw new SledgeError('SLEDGE_E_VALIDATION', `unknown TPROC-H unit kind ${JSON.stringify(kind)}: use region, supplier, customer, part or orders`, {
      field: 'unit.kind',
    });
  }
  const r = u as { kind: TprochBaseTable; from: number; to: number };
  const max = sizes[r.kind];
  if (!Number.isInteger(r.from) || !Number.isInteger(r.to) || r.from < 1 || r.to > max || r.from > r.to) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `unit ${r.kind} range ${String(r.from)}..${String(r.to)} must be integers within 1..${max}`, {
      field: 'unit.from',
    });
  }
  return true;
}

export class TprochGenerator {
  readonly sizes: TprochSizes;
  private text: PoolText | undefined;
  private readonly perm = new Int32Array(TPROCH_COLORS.length);

  constructor(
    readonly scaleFactor: number,
    private readonly format: BulkFormat,
  ) {
    this.sizes = tprochSizes(scaleFactor);
    if (format !== 'pg-text' && format !== 'csv' && format !== 'tuples') {
      throw new SledgeError('SLEDGE_E_VALIDATION', `format must be 'pg-text', 'csv' or 'tuples', not ${JSON.stringify(format)}`, { field: 'format' });
    }
  }

  generate(u: TprochUnit): TprochGeneratedTable[] {
    if (!tprochCheckUnit(this.sizes, u)) return this.regionNation();
    const r = u as { kind: TprochBaseTable; from: number; to: number };
    switch (r.kind) {
      case 'supplier':
        return [this.suppliers(r.from, r.to)];
      case 'customer':
        return [this.customers(r.from, r.to)];
      case 'part':
        return this.parts(r.from, r.to);
      case 'orders': {
        const o = this.orders(r.from, r.to, 0, r.from - 1, r.from - 1);
        return [table('orders', o.order), table('lineitem', o.lines)];
      }
    }
  }

  private pool(): PoolText {
    this.text ??= poolText(tprochTextPool());
    return this.text;
  }

  /** dbgen dbg_text: offset then length from the same stream, the pool's bytes there. */
  private comment(st: TprochStreams, s: number, avg: number): string {
    const [lo, hi] = textBounds(avg);
    const off = st.unif(s, 0, TPROCH_TEXT_POOL_SIZE - hi);
    const len = st.unif(s, lo, hi);
    return this.pool().slice(off, off + len);
  }

  /** dbgen a_rnd: a length, then one draw per 5 characters, 6 bits per character. */
  private alnum(st: TprochStreams, s: number, avg: number): string {
    const [lo, hi] = textBounds(avg);
    const len = st.unif(s, lo, hi);
    let out = '';
    let bits = 0;
    for (let i = 0; i < len; i++) {
      if (i % 5 === 0) bits = st.unifAlnum(s);
      out += ALNUM[bits & 63];
      bits >>= 6;
    }
    return out;
  }

  private pick(st: TprochStreams, s: number, d: TprochDist): string {
    const j = st.unif(s, 1, d.total);
    let i = 0;
    while (d.cumulative[i]! < j) i++;
    return d.members[i]!;
  }

  private phone(st: TprochStreams, s: number, nation: number): string {
    const a = st.unif(s, 100, 999);
    const b = st.unif(s, 100, 999);
    const c = st.unif(s, 1000, 9999);
    return `${10 + nation}-${a}-${b}-${c}`;
  }

  private regionNation(): TprochGeneratedTable[] {
    const r = new TprochTableOut(this.format);
    const n = new TprochTableOut(this.format);
    const st = new TprochStreams([SD.N_CMNT, SD.R_CMNT]);
    st.seekAll(0);
    for (let i = 0; i < TPROCH_DISTS.nations.members.length; i++) {
      n.int(i);
      n.str(TPROCH_DISTS.nations.members[i]!);
      n.int(TPROCH_NATION_REGION[i]!);
      n.str(this.comment(st, SD.N_CMNT, LEN.N_CMNT));
      n.end();
    }
    for (let i = 0; i < TPROCH_REGIONS.length; i++) {
      r.int(i);
      r.str(TPROCH_REGIONS[i]!);
      r.str(this.comment(st, SD.R_CMNT, LEN.R_CMNT));
      r.end();
    }
    return [table('region', r), table('nation', n)];
  }

  private suppliers(from: number, to: number): TprochGeneratedTable {
    const out = new TprochTableOut(this.format);
    const st = new TprochStreams(TPROCH_GROUP_STREAMS.supplier);
    st.seekAll(from - 1);
    for (let k = from; k <= to; k++, st.nextRow()) {
      out.int(k);
      out.str('Supplier#' + pad9(k));
      out.str(this.alnum(st, SD.S_ADDR, LEN.S_ADDR));
      const nation = st.unif(SD.S_NTRG, 0, 24);
      out.int(nation);
      out.str(this.phone(st, SD.S_PHNE, nation));
      out.money(st.unif(SD.S_ABAL, -99999, 999999));
      let cmnt = this.comment(st, SD.S_CMNT, LEN.S_CMNT);
      // Better Business Bureau comments: 10 in 10000 suppliers get "Customer ... Complaints|Recommends".
      const bad = st.unif(SD.BBB_CMNT, 1, 10000);
      const type = st.unif(SD.BBB_TYPE, 0, 100);
      const noise = st.unif(SD.BBB_JNK, 0, cmnt.length - 19);
      const offset = st.unif(SD.BBB_OFFSET, 0, cmnt.length - (19 + noise));
      if (bad <= 10) {
        const word = type < 50 ? 'Complaints' : 'Recommends';
        const at = offset + 9 + noise;
        cmnt = cmnt.slice(0, offset) + 'Customer ' + cmnt.slice(offset + 9, at) + word + cmnt.slice(at + 10);
      }
      out.str(cmnt);
      out.end();
    }
    return table('supplier', out);
  }

  private customers(from: number, to: number): TprochGeneratedTable {
    const out = new TprochTableOut(this.format);
    const st = new TprochStreams(TPROCH_GROUP_STREAMS.customer);
    st.seekAll(from - 1);
    for (let k = from; k <= to; k++, st.nextRow()) {
      out.int(k);
      out.str('Customer#' + pad9(k));
      out.str(this.alnum(st, SD.C_ADDR, LEN.C_ADDR));
      const nation = st.unif(SD.C_NTRG, 0, 24);
      out.int(nation);
      out.str(this.phone(st, SD.C_PHNE, nation));
      out.money(st.unif(SD.C_ABAL, -99999, 999999));
      out.str(this.pick(st, SD.C_MSEG, TPROCH_DISTS.msegmnt));
      out.str(this.comment(st, SD.C_CMNT, LEN.C_CMNT));
      out.end();
    }
    return table('customer', out);
  }

  private parts(from: number, to: number): TprochGeneratedTable[] {
    const p = new TprochTableOut(this.format);
    const ps = new TprochTableOut(this.format);
    const st = new TprochStreams(TPROCH_GROUP_STREAMS.part);
    st.seekAll(from - 1);
    const perm = this.perm;
    const colors = TPROCH_COLORS;
    const nColors = colors.length;
    const suppliers = this.sizes.supplier;
    for (let k = from; k <= to; k++, st.nextRow()) {
      p.int(k);
      // agg_str: a fresh permutation of the 92 colours (92 draws), the first 5 joined.
      for (let i = 0; i < nColors; i++) perm[i] = i;
      for (let i = 0; i < nColors; i++) {
        const j = st.unif(SD.P_NAME, i, nColors - 1);
        const t = perm[j]!;
        perm[j] = perm[i]!;
        perm[i] = t;
      }
      p.str(`${colors[perm[0]!]} ${colors[perm[1]!]} ${colors[perm[2]!]} ${colors[perm[3]!]} ${colors[perm[4]!]}`);
      const m = st.unif(SD.P_MFG, 1, 5);
      p.str('Manufacturer#' + m);
      p.str('Brand#' + (m * 10 + st.unif(SD.P_BRND, 1, 5)));
      p.str(this.pick(st, SD.P_TYPE, TPROCH_DISTS.p_types));
      p.int(st.unif(SD.P_SIZE, 1, 50));
      p.str(this.pick(st, SD.P_CNTR, TPROCH_DISTS.p_cntr));
      p.money(tprochRetailCents(k));
      p.str(this.comment(st, SD.P_CMNT, LEN.P_CMNT));
      p.end();
      for (let s = 0; s < 4; s++) {
        ps.int(k);
        ps.int(tprochPartSupplier(k, s, suppliers));
        ps.int(st.unif(SD.PS_QTY, 1, 9999));
        ps.money(st.unif(SD.PS_SCST, 100, 100000));
        ps.str(this.comment(st, SD.PS_CMNT, LEN.PS_CMNT));
        ps.end();
      }
    }
    return [table('part', p), table('partsupp', ps)];
  }

  /**
   * Orders with index from..to and their lines. `seq` is the sparse-key
   * update sequence (0 at load); the order and line streams start after
   * `orderRowsBefore` / `lineRowsBefore` rows (they differ for refresh sets).
   */
  orders(from: number, to: number, seq: number, orderRowsBefore: number, lineRowsBefore: number, each?: (o: TprochOrderRows) => void): TprochOrderRows {
    const o = new TprochTableOut(this.format);
    const l = new TprochTableOut(this.format);
    const os = new TprochStreams(TPROCH_GROUP_STREAMS.order);
    const ls = new TprochStreams(TPROCH_GROUP_STREAMS.line);
    os.seekAll(orderRowsBefore);
    ls.seekAll(lineRowsBefore);
    const { customer: customers, part: parts, supplier: suppliers, scale } = this.sizes;
    const clerks = Math.max(scale * 1000, 1000);
    for (let i = from; i <= to; i++, os.nextRow(), ls.nextRow()) {
      const key = tprochOrderKey(i, seq);
      let cust = os.unif(SD.O_CKEY, 1, customers);
      // dbgen: a third of the customers have no orders (keys that are multiples of 3 move ±1).
      let delta = 1;
      while (cust % 3 === 0) {
        cust = Math.min(cust + delta, customers);
        delta = -delta;
      }
      const date = os.unif(SD.O_ODATE, 0, ORDER_DATE_MAX);
      const prio = this.pick(os, SD.O_PRIO, TPROCH_DISTS.o_oprio);
      const clerk = os.unif(SD.O_CLRK, 1, clerks);
      const cmnt = this.comment(os, SD.O_CMNT, LEN.O_CMNT);
      const lines = os.unif(SD.O_LCNT, 1, 7);
      let total = 0;
      let shipped = 0;
      for (let n = 1; n <= lines; n++) {
        const qty = ls.unif(SD.L_QTY, 1, 50);
        const disc = ls.unif(SD.L_DCNT, 0, 10);
        const tax = ls.unif(SD.L_TAX, 0, 8);
        const instruct = this.pick(ls, SD.L_SHIP, TPROCH_DISTS.instruct);
        const mode = this.pick(ls, SD.L_SMODE, TPROCH_DISTS.smode);
        const lcmnt = this.comment(ls, SD.L_CMNT, LEN.L_CMNT);
        const partkey = ls.unif(SD.L_PKEY, 1, parts);
        const suppkey = tprochPartSupplier(partkey, ls.unif(SD.L_SKEY, 0, 3), suppliers);
        const price = tprochRetailCents(partkey) * qty;
        total += Math.trunc((Math.trunc((price * (100 - disc)) / 100) * (100 + tax)) / 100);
        const ship = date + ls.unif(SD.L_SDTE, 1, 121);
        const commit = date + ls.unif(SD.L_CDTE, 30, 90);
        const receipt = ship + ls.unif(SD.L_RDTE, 1, 30);
        const rflag = receipt <= TPROCH_CURRENT_DATE ? this.pick(ls, SD.L_RFLG, TPROCH_DISTS.rflag) : 'N';
        const status = ship <= TPROCH_CURRENT_DATE ? 'F' : 'O';
        if (ship <= TPROCH_CURRENT_DATE) shipped++;
        l.int(key);
        l.int(partkey);
        l.int(suppkey);
        l.int(n);
        l.int(qty);
        l.money(price);
        l.money(disc);
        l.money(tax);
        l.str(rflag);
        l.str(status);
        l.str(TPROCH_DATES[ship]!);
        l.str(TPROCH_DATES[commit]!);
        l.str(TPROCH_DATES[receipt]!);
        l.str(instruct);
        l.str(mode);
        l.str(lcmnt);
        l.end();
      }
      o.int(key);
      o.int(cust);
      o.str(shipped === lines ? 'F' : shipped > 0 ? 'P' : 'O');
      o.money(total);
      o.str(TPROCH_DATES[date]!);
      o.str(prio);
      o.str('Clerk#' + pad9(clerk));
      o.int(0);
      o.str(cmnt);
      o.end();
      each?.({ order: o, lines: l });
    }
    return { order: o, lines: l };
  }
}

function table(name: TprochTable, out: TprochTableOut): TprochGeneratedTable {
  return { table: name, rows: out.rows, data: out.take() };
}

