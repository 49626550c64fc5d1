import type { TprochTable } from '@sledge/protocol';
import { splitWarehouses } from '../bulk/split.js';

/** The tables whose rows scale with SF and are split over build workers (part brings partsupp, orders brings lineitem). */
export const TPROCH_SPLIT_TABLES = ['supplier', 'customer', 'part', 'orders'] as const;
export type TprochSplitTable = (typeof TPROCH_SPLIT_TABLES)[number];

/** HammerDB's multipliers of the SF·10000 base per table (hammerdb.md §10.2). */
export const TPROCH_MULTIPLIERS: Readonly<Record<TprochSplitTable, number>> = { supplier: 1, customer: 15, part: 20, orders: 150 };

/** Rows per generated unit (progress granularity): a unit of parts also makes 4 partsupp rows each, an order 1..7 lineitems. */
export const TPROCH_CHUNK: Readonly<Record<TprochSplitTable, number>> = { supplier: 5000, customer: 5000, part: 2000, orders: 1000 };

/** One unit of generation (the generator's TprochUnit): 1-based row numbers; orders from/to are order indexes, not keys. */
export type TprochBuildUnit = { kind: 'region' } | { kind: TprochSplitTable; from: number; to: number };

export interface TprochWorkerPlan {
  /** HammerDB VU position: 2..n+1 (1 is the monitor). */
  worker: number;
  /** The worker's share of the SF·10000 base, 1-based inclusive. */
  base: [number, number];
  /** Row ranges per table. */
  ranges: Record<TprochSplitTable, [number, number]>;
  /** Its units in load order: supplier, customer, part (+partsupp), orders (+lineitem). */
  units: TprochBuildUnit[];
}

/** Chunks of [from, to] of at most `size` rows. */
function chunks(kind: TprochSplitTable, from: number, to: number, size: number): TprochBuildUnit[] {
  const out: TprochBuildUnit[] = [];
  for (let a = from; a <= to; a += size) out.push({ kind, from: a, to: Math.min(to, a + size - 1) });
  return out;
}

/**
 * The build split of HammerDB's do_tpch: the monitor loads REGION and NATION;
 * worker i loads start_end(SF·10000, i, mult, n) of each table, the SF·10000
 * base split by TPROC-C's chunk rule (splitWarehouses) and scaled by the
 * table's multiplier. `rows` are the tables' totals (the generator's
 * tprochBaseRows); a table whose total is not mult·base (fractional SFs) is
 * split in the same proportion, the last worker ending at its total.
 */
export function tprochBuildPlan(rows: Readonly<Record<TprochSplitTable, number>>, buildVus: number): TprochWorkerPlan[] {
  const base = rows.supplier;
  if (!(base >= 1)) throw new RangeError('the scale factor gives no supplier rows: use SF >= 0.0001');
  return splitWarehouses(base, buildVus).map((r) => {
    const ranges = {} as Record<TprochSplitTable, [number, number]>;
    const units: TprochBuildUnit[] = [];
    for (const t of TPROCH_SPLIT_TABLES) {
      const n = rows[t];
      const from = Math.floor(((r.start - 1) * n) / base) + 1;
      const to = r.end === base ? n : Math.floor((r.end * n) / base);
      ranges[t] = [from, to];
      units.push(...chunks(t, from, to, TPROCH_CHUNK[t]));
    }
    return { worker: r.worker, base: [r.start, r.end], ranges, units };
  });
}

/** Rows per table of a complete build: region 5, nation 25, partsupp 4 per part, lineitem as generated. */
export function tprochExpectedRows(rows: Readonly<Record<TprochSplitTable, number>>, lineitem: number): Record<TprochTable, number> {
  return { region: 5, nation: 25, supplier: rows.supplier, customer: rows.customer, part: rows.part, partsupp: rows.part * 4, orders: rows.orders, lineitem };
}
