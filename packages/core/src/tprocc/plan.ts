import type { TproccTable } from '@sledge/protocol';
import { CUST_PER_DIST, DIST_PER_WARE, ITEM_CHUNK, MAXITEMS, ORD_PER_DIST, STOCK_CHUNK } from './constants.js';
import type { TproccUnit } from './generate.js';
import { splitWarehouses } from '../bulk/split.js';

export { splitWarehouses, type WarehouseRange } from '../bulk/split.js';


/** ITEM units, loaded by the monitor. */
export function itemUnits(): TproccUnit[] {
  const out: TproccUnit[] = [];
  for (let from = 1; from <= MAXITEMS; from += ITEM_CHUNK) out.push({ kind: 'item', from, to: Math.min(MAXITEMS, from + ITEM_CHUNK - 1) });
  return out;
}

/** Units for one warehouse, in HammerDB's order: warehouse, stock, districts, customers, orders. */
export function warehouseUnits(w: number): TproccUnit[] {
  const out: TproccUnit[] = [{ kind: 'warehouse', w }];
  for (let from = 1; from <= MAXITEMS; from += STOCK_CHUNK) out.push({ kind: 'stock', w, from, to: Math.min(MAXITEMS, from + STOCK_CHUNK - 1) });
  out.push({ kind: 'district', w });
  for (let d = 1; d <= DIST_PER_WARE; d++) out.push({ kind: 'customer', w, d });
  for (let d = 1; d <= DIST_PER_WARE; d++) out.push({ kind: 'orders', w, d });
  return out;
}

/**
 * How a build's range workers share out the units of the warehouses.
 * - 'ranges': each worker loads its own warehouse range, each warehouse whole (HammerDB's order).
 * - 'lanes': the warehouses are split by table as the engine's bulk load splits its files, into
 *   two queues over all warehouses: WAREHOUSE, STOCK and DISTRICT; CUSTOMER, HISTORY, ORDERS,
 *   NEW_ORDER and ORDER_LINE. Every other worker starts on each queue, so two workers do not
 *   append to the same table while both queues last, and each table is appended in warehouse
 *   order (its heap in key order, as after a bulk load). A worker whose queue is empty takes
 *   the next units of the other one (the lanes are not the same size).
 * - 'rows': lanes as 'lanes', with CUSTOMER and HISTORY moved to the STOCK lane, so that the two
 *   lanes are closer in rows (~160,000 vs ~339,000 per warehouse instead of ~100,000 vs ~399,000),
 *   as the bulk load's two sessions are (STOCK, CUSTOMER, ORDERS, NEW_ORDER | ORDER_LINE, HISTORY:
 *   ~169,000 vs ~330,000). ORDERS, NEW_ORDER and ORDER_LINE stay together: they are one unit.
 * - 'swap': each worker its own range, every other worker STOCK first, the others STOCK last.
 */
export type BuildSchedule = 'ranges' | 'lanes' | 'rows' | 'swap';
export const BUILD_SCHEDULES: readonly BuildSchedule[] = ['ranges', 'lanes', 'rows', 'swap'];

/** A build worker's share: the warehouses it may load rows of (first..last) and the queue it starts on. */
export interface BuildShare {
  worker: number;
  start: number;
  end: number;
  queue: number;
  /** The tables of that queue when the queues are lanes of tables (for the worker's log line). */
  lane: string | null;
}

/**
 * Units in queues: a worker claims the next unit of its queue (an atomic
 * counter per queue) and, with `steal`, then the next units of the other
 * queues in turn. Every unit of every warehouse is in exactly one queue.
 */
export interface BuildPlan {
  queues: TproccUnit[][];
  steal: boolean;
  shares: BuildShare[];
}

const isStockLane = (u: TproccUnit) => u.kind === 'warehouse' || u.kind === 'stock' || u.kind === 'district';
/** The table-lane schedules: which units make the first lane, and each lane's tables (the worker's log line). */
const LANES: Partial<Record<BuildSchedule, { first: (u: TproccUnit) => boolean; tables: readonly [string, string] }>> = {
  lanes: { first: isStockLane, tables: ['WAREHOUSE, STOCK, DISTRICT', 'CUSTOMER, HISTORY, ORDERS, NEW_ORDER, ORDER_LINE'] },
  rows: { first: (u) => isStockLane(u) || u.kind === 'customer', tables: ['WAREHOUSE, STOCK, DISTRICT, CUSTOMER, HISTORY', 'ORDERS, NEW_ORDER, ORDER_LINE'] },
};

/** The units of warehouses start..end that pass `keep`, warehouse by warehouse. */
function unitsOf(start: number, end: number, keep: (u: TproccUnit) => boolean = () => true): TproccUnit[] {
  const out: TproccUnit[] = [];
  for (let w = start; w <= end; w++) for (const u of warehouseUnits(w)) if (keep(u)) out.push(u);
  return out;
}

/** The plan of n build workers for W warehouses (see BuildSchedule). Only the order and the worker of a unit differ between schedules; units are independent, so the rows are the same. */
export function buildPlan(W: number, n: number, schedule: BuildSchedule): BuildPlan {
  const ranges = splitWarehouses(W, n);
  const lanes = LANES[schedule];
  if (lanes && ranges.length > 1)
    return {
      queues: [unitsOf(1, W, lanes.first), unitsOf(1, W, (u) => !lanes.first(u))],
      steal: true,
      shares: ranges.map((r, i) => ({ worker: r.worker, start: 1, end: W, queue: i % 2, lane: lanes.tables[i % 2]! })),
    };
  const shares = ranges.map((r, i) => ({ ...r, queue: i, lane: null }));
  if (schedule === 'swap')
    return {
      queues: ranges.map((r, i) => {
        const stock = unitsOf(r.start, r.end, (u) => u.kind === 'stock');
        const rest = unitsOf(r.start, r.end, (u) => u.kind !== 'stock');
        return i % 2 === 0 ? [...stock, ...rest] : [...rest, ...stock];
      }),
      steal: false,
      shares,
    };
  return { queues: ranges.map((r) => unitsOf(r.start, r.end)), steal: false, shares };
}

/** Rows per table after a complete build of W warehouses (order_line is the expected value, 10 per order). */
export function expectedRows(W: number): Record<TproccTable, number> {
  return {
    item: MAXITEMS,
    warehouse: W,
    stock: MAXITEMS * W,
    district: DIST_PER_WARE * W,
    customer: CUST_PER_DIST * DIST_PER_WARE * W,
    history: CUST_PER_DIST * DIST_PER_WARE * W,
    orders: ORD_PER_DIST * DIST_PER_WARE * W,
    new_order: 900 * DIST_PER_WARE * W,
    order_line: ORD_PER_DIST * DIST_PER_WARE * W * 10,
  };
}

/**
 * The rows expectedRows() counts for one unit where that count is an
 * estimate rather than exact: an ORDERS unit's order lines (5-15 per order,
 * expected value 10). A build adds (generated - estimate) to its expected
 * total when it generates the unit, so the total is exact once every unit is
 * generated and never below the rows loaded so far.
 */
export function estimatedRows(u: TproccUnit): Partial<Record<TproccTable, number>> {
  return u.kind === 'orders' ? { order_line: ORD_PER_DIST * 10 } : {};
}

/**
 * allwarehouse=true: with L active VUs, VU at position p (2..L+1) owns
 * {((p−2) + k·L) mod W + 1 : k = 0..ceil(W/L)−1} (hammerdb.md §6.2).
 */
export function allWarehouseSet(p: number, L: number, W: number): number[] {
  const n = Math.ceil(W / L);
  const set: number[] = [];
  for (let k = 0; k < n; k++) {
    const w = (((p - 2) + k * L) % W) + 1;
    if (!set.includes(w)) set.push(w);
  }
  return set;
}

/** PostgreSQL/MySQL ORDER_LINE partitions: only when W >= 200, floor(W/100) of them. */
export function orderLinePartitions(W: number, enabled: boolean): number {
  return enabled && W >= 200 ? Math.floor(W / 100) : 0;
}

/** One session of a build's keys and statistics step: its key statements (in indexes.sql order), then its tables' statistics. */
export interface KeySession<K> {
  tables: TproccTable[];
  keys: K[];
}

/**
 * The keys and statistics step of a build in `sessions` sessions at once (at
 * most 2). Each table goes, biggest first, to the session with less work so
 * far, its work being its rows times its key statements. A table without
 * keys weighs nothing and goes where it fits: its statistics are a sample.
 * One session alone leaves the second core idle while a key is sorted or a
 * table sampled: on PostgreSQL ANALYZE and the small tables' keys run on one
 * core, on MariaDB/MySQL every ALTER TABLE ... ADD INDEX does.
 * Throws when a statement names no TPROC-C table (keyStatementTable).
 */
export function keySessions<K>(W: number, sessions: number, keys: readonly K[], sqlOf: (k: K) => string): KeySession<K>[] {
  const rows = expectedRows(W);
  const tableOf = keys.map((k) => {
    const t = keyStatementTable(sqlOf(k));
    if (t === null || !(t in rows)) throw new Error(`indexes.sql: no TPROC-C table named in: ${sqlOf(k).trim().split('\n')[0]}`);
    return t as TproccTable;
  });
  const work = (t: TproccTable) => rows[t] * tableOf.filter((x) => x === t).length;
  const n = Number.isFinite(sessions) ? Math.max(1, Math.min(2, Math.floor(sessions))) : 1;
  const out: KeySession<K>[] = Array.from({ length: n }, () => ({ tables: [], keys: [] }));
  const load = new Array<number>(n).fill(0);
  const tables = (Object.keys(rows) as TproccTable[]).sort((a, b) => work(b) - work(a) || rows[b] - rows[a]);
  for (const t of tables) {
    const i = load.indexOf(Math.min(...load));
    out[i]!.tables.push(t);
    load[i]! += work(t);
  }
  for (const s of out) s.keys = keys.filter((_, j) => s.tables.includes(tableOf[j]!));
  return out;
}

/** The table an ALTER TABLE / CREATE INDEX ... ON statement of indexes.sql works on, or null. */
export function keyStatementTable(sql: string): string | null {
  const m = /^\s*ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?["`[]?(\w+)|\bON\s+(?:ONLY\s+)?["`[]?(\w+)["`\]]?\s*\(/im.exec(sql);
  return m ? (m[1] ?? m[2])!.toLowerCase() : null;
}
