import { TPROCC_TABLES, type CheckItem, type TproccTable } from '@sledge/protocol';
import { expectedRows } from './plan.js';

export const TPROCC_ROUTINES = ['neword', 'payment', 'delivery', 'slev', 'ostat'] as const;
export type TproccRoutine = (typeof TPROCC_ROUTINES)[number];

export interface DistrictFacts {
  d: number;
  next_o_id: number;
  max_o_id: number;
  no_count: number;
  no_min: number;
  no_max: number;
  sum_ol_cnt: number;
  ol_count: number;
}
export interface WarehouseFacts {
  w: number;
  w_ytd: number;
  sum_d_ytd: number;
  districts: DistrictFacts[];
}

/** What a driver reads from the database for checkschema (hammerdb.md §5.5). */
export interface CheckFacts {
  databaseExists: boolean;
  tables: Partial<Record<TproccTable, boolean>>;
  maxWarehouse: number | null;
  /** Tables that have at least one index (history needs none). */
  indexed: Partial<Record<TproccTable, boolean>>;
  rowCounts: Partial<Record<TproccTable, number>>;
  /** Routines present; engines that run transactions client-side report every one as present, an engine that runs none (DuckDB) reports none. */
  routines: Partial<Record<TproccRoutine, boolean>>;
  warehouses: WarehouseFacts[];
}

/** Warehouses the consistency checks sample: all when W <= 10, else 1, 0.1W..0.9W, W. */
export function checkSampleWarehouses(W: number): number[] {
  if (W <= 10) return Array.from({ length: W }, (_, i) => i + 1);
  const s = new Set<number>([1]);
  for (let k = 1; k <= 9; k++) s.add(Math.max(1, Math.floor((W * k) / 10)));
  s.add(W);
  return [...s].sort((a, b) => a - b);
}

/** Minimum row counts accepted by checkschema. */
export function minimumRows(W: number): Record<TproccTable, number> {
  const e = expectedRows(W);
  return { ...e, new_order: Math.floor(e.new_order * 0.9), order_line: Math.floor(e.order_line * 0.99) };
}

/**
 * Evaluate checkschema facts. `W` is the configured warehouse count, or
 * null to accept what the database holds.
 */
export function evaluateCheck(facts: CheckFacts, W: number | null): CheckItem[] {
  const items: CheckItem[] = [];
  const add = (name: string, ok: boolean, detail: string) => items.push({ name, ok, detail });
  add('database exists and is not empty', facts.databaseExists, facts.databaseExists ? 'found' : 'database or schema not found');
  if (!facts.databaseExists) return items;
  const missing = TPROCC_TABLES.filter((t) => !facts.tables[t]);
  add('all 9 tables exist', missing.length === 0, missing.length ? `missing: ${missing.join(', ')}` : TPROCC_TABLES.join(', '));
  if (missing.length) return items;
  const maxW = facts.maxWarehouse ?? 0;
  const wantW = W ?? maxW;
  add('max(w_id) equals the warehouse count', maxW === wantW && maxW > 0, `max(w_id) = ${maxW}, expected ${wantW}`);
  const noIndex = TPROCC_TABLES.filter((t) => t !== 'history' && !facts.indexed[t]);
  add('every table except history is indexed', noIndex.length === 0, noIndex.length ? `no index on: ${noIndex.join(', ')}` : 'ok');
  const min = minimumRows(wantW);
  // Runs add orders, and HammerDB's mix deletes as many new_order rows (a delivery takes 10 per
  // 10 new orders), so after runs new_order drifts around its loaded size and may end below
  // 0.9 x 9000W with the schema intact (C3 checks it). Its minimum applies to an undriven schema only.
  const driven = (facts.rowCounts.orders ?? 0) > expectedRows(wantW).orders;
  const short = TPROCC_TABLES.filter((t) => !(driven && t === 'new_order') && (facts.rowCounts[t] ?? 0) < min[t]);
  add(
    'row counts',
    short.length === 0,
    short.length
      ? short.map((t) => `${t} has ${facts.rowCounts[t] ?? 0} rows, needs >= ${min[t]}`).join('; ')
      : TPROCC_TABLES.map((t) => `${t} ${facts.rowCounts[t]}`).join(', '),
  );
  const noRoutine = Object.entries(facts.routines).filter(([, ok]) => !ok).map(([r]) => r);
  // An engine that runs no TPROC-C transactions (DuckDB: TproccHooks.noTransactions) reports no routines.
  const routineNames = Object.keys(facts.routines).length === 0 ? 'none: this engine runs no TPROC-C transactions' : 'neword, payment, delivery, slev, ostat';
  add('transaction routines exist', noRoutine.length === 0, noRoutine.length ? `missing: ${noRoutine.join(', ')}` : routineNames);

  const c1: string[] = [];
  const c2: string[] = [];
  const c3: string[] = [];
  const c4: string[] = [];
  for (const wf of facts.warehouses) {
    if (Math.abs(wf.w_ytd - wf.sum_d_ytd) > 0.005) c1.push(`w ${wf.w}: w_ytd ${wf.w_ytd} != sum(d_ytd) ${wf.sum_d_ytd}`);
    for (const d of wf.districts) {
      if (d.next_o_id - 1 !== d.max_o_id) c2.push(`w ${wf.w} d ${d.d}: d_next_o_id-1 ${d.next_o_id - 1} != max(o_id) ${d.max_o_id}`);
      if (d.no_count > 0 && d.no_count !== d.no_max - d.no_min + 1) c3.push(`w ${wf.w} d ${d.d}: ${d.no_count} new orders, range ${d.no_min}..${d.no_max}`);
      if (d.sum_ol_cnt !== d.ol_count) c4.push(`w ${wf.w} d ${d.d}: sum(o_ol_cnt) ${d.sum_ol_cnt} != count(order_line) ${d.ol_count}`);
    }
  }
  const sampled = facts.warehouses.map((w) => w.w).join(',');
  const c = (name: string, bad: string[]) =>
    add(name, bad.length === 0 && facts.warehouses.length > 0, bad.length ? bad.slice(0, 5).join('; ') + (bad.length > 5 ? ` (+${bad.length - 5} more)` : '') : `warehouses ${sampled}`);
  c('C1: w_ytd = sum(d_ytd)', c1);
  c('C2: d_next_o_id - 1 = max(o_id)', c2);
  c('C3: new_order count = max - min + 1', c3);
  c('C4: sum(o_ol_cnt) = count(order_line)', c4);
  return items;
}
