import type { BuildWorkerOf } from '../../util/progress.js';

/**
 * TPROC-C's build workers: worker 1 (the monitor) loads ITEM; workers 2..
 * load warehouse ranges, so their expected rows are the range's share of
 * every other table. Where workers share queues over every warehouse
 * (PostgreSQL's and MySQL's table lanes) the share is the whole: the bar is
 * an estimate until the worker reports done.
 */
export const tproccBuildWorker: BuildWorkerOf = (w, p) => {
  if (w.worker === 1) return { label: 'item', expected: p.expected['item'] ?? 0 };
  const total = p.expected['warehouse'] ?? 0;
  let expected = 0;
  if (total > 0) {
    const [lo, hi] = w.warehouses;
    const share = Math.max(0, hi - lo + 1) / total;
    for (const [t, n] of Object.entries(p.expected)) if (t !== 'item') expected += n * share;
  }
  return { label: `W ${w.warehouses[0]}–${w.warehouses[1]}${w.currentWarehouse && !w.done ? ` (at ${w.currentWarehouse})` : ''}`, expected };
};
