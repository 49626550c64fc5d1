import { fmtInt } from '../../util/format.js';
import type { BuildWorkerOf } from '../../util/progress.js';

/** The tables the monitor loads itself; the build workers load shares of the others. */
const MONITOR_TABLES = ['region', 'nation'];

/**
 * TPROC-H's build workers (HammerDB's do_tpch split): worker 1 (the monitor)
 * loads REGION and NATION; workers 2.. each load one share of the SF·10000
 * base: a range of ORDERS (with their LINEITEMs; the progress document's
 * range is of order indexes) and the same share of SUPPLIER, CUSTOMER, PART
 * and PARTSUPP. Expected rows are that share of each table.
 */
export const tprochBuildWorker: BuildWorkerOf = (w, p) => {
  if (w.worker === 1) return { label: MONITOR_TABLES.join(', '), expected: MONITOR_TABLES.reduce((a, t) => a + (p.expected[t] ?? 0), 0) };
  const [lo, hi] = w.warehouses;
  const orders = p.expected['orders'] ?? 0;
  const share = orders > 0 ? Math.max(0, hi - lo + 1) / orders : 0;
  let expected = 0;
  for (const [t, n] of Object.entries(p.expected)) if (!MONITOR_TABLES.includes(t)) expected += n * share;
  return { label: `orders ${fmtInt(lo)}–${fmtInt(hi)} (${Math.round(share * 100)}% of each table)`, expected };
};
