import { TPROCC_ROUTINES, type CheckFacts, type DistrictFacts, type WarehouseFacts } from '@sledge/core';
import { TPROCC_TABLES, type TproccTable } from '@sledge/protocol';

/** Runs a named check.sql statement and returns its rows. */
export type RowsFn = (name: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

function isTable(name: string): name is TproccTable {
  return (TPROCC_TABLES as readonly string[]).includes(name);
}

/**
 * Gather what checkschema evaluates (hammerdb.md §5.5). The admin session
 * has already selected the database; `tables` are the names it holds.
 */
export async function gatherCheckFacts(
  rows: RowsFn,
  database: string,
  sample: number[],
  clientSideTransactions: boolean,
): Promise<CheckFacts> {
  const names = (await rows('tables', [database])).map((r) => String(r.name));
  const tables: CheckFacts['tables'] = {};
  for (const t of TPROCC_TABLES) tables[t] = names.includes(t);
  const facts: CheckFacts = {
    databaseExists: names.length > 0,
    tables,
    maxWarehouse: null,
    indexed: {},
    rowCounts: {},
    routines: {},
    warehouses: [],
  };
  if (!facts.databaseExists) return facts;

  for (const r of await rows('indexed_tables', [database])) {
    const n = String(r.name);
    if (isTable(n)) facts.indexed[n] = true;
  }
  const routines = clientSideTransactions ? [...TPROCC_ROUTINES] : (await rows('routines', [database])).map((r) => String(r.name));
  for (const r of TPROCC_ROUTINES) facts.routines[r] = routines.includes(r);

  if (TPROCC_TABLES.some((t) => !tables[t])) return facts;
  facts.maxWarehouse = num((await rows('max_warehouse'))[0]?.w);
  for (const r of await rows('row_counts')) {
    const n = String(r.t);
    if (isTable(n)) facts.rowCounts[n] = num(r.n);
  }
  const ws = sample.filter((w) => Number.isInteger(w) && w >= 1);
  if (ws.length === 0) return facts;

  const [wh, di, od, no, ol] = await Promise.all([
    rows('warehouse_facts', [ws]),
    rows('district_facts', [ws]),
    rows('orders_facts', [ws]),
    rows('new_order_facts', [ws]),
    rows('order_line_facts', [ws]),
  ]);
  const key = (r: Record<string, unknown>) => `${num(r.w)}/${num(r.d)}`;
  const byKey = (list: Record<string, unknown>[]) => new Map(list.map((r) => [key(r), r]));
  const orders = byKey(od);
  const newOrders = byKey(no);
  const lines = byKey(ol);
  const districts = new Map<number, DistrictFacts[]>();
  for (const r of di) {
    const k = key(r);
    const o = orders.get(k);
    const n = newOrders.get(k);
    const list = districts.get(num(r.w)) ?? [];
    list.push({
      d: num(r.d),
      next_o_id: num(r.next_o_id),
      max_o_id: num(o?.max_o_id),
      no_count: num(n?.n),
      no_min: num(n?.lo),
      no_max: num(n?.hi),
      sum_ol_cnt: num(o?.sum_ol_cnt),
      ol_count: num(lines.get(k)?.n),
    });
    districts.set(num(r.w), list);
  }
  facts.warehouses = wh
    .map(
      (r): WarehouseFacts => ({
        w: num(r.w),
        w_ytd: num(r.w_ytd),
        sum_d_ytd: num(r.sum_d_ytd),
        districts: (districts.get(num(r.w)) ?? []).sort((a, b) => a.d - b.d),
      }),
    )
    .sort((a, b) => a.w - b.w);
  return facts;
}
