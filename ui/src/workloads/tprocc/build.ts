import type { BuildWorkerOf } from '../../util/progress.js';

/**
 * TPROC-C's build workers: worker 1 (the monitor) loads ITEM; workers 2..
 * load warehouse ranges, so their expected rows are the range's share of
 * every other table. With one build VU, worker 1 loads ITEM and then every
 * warehouse (HammerDB's single-VU build): its range is [1, W] and it expects
 * both. Where workers share queues over every warehouse (PostgreSQL's and
 * MySQL's table lanes) the share is the whole: the bar is an estimate until
 * the worker reports done.
 */
export const tproccBuildWorker: BuildWorkerOf = (w, p) => {
  const [lo, hi] = w.warehouses;
  const items = w.worker === 1;
  const itemRows = p.expected['item'] ?? 0;
  if (items && lo === 0) return { label: 'item', expected: itemRows };
  const total = p.expected['warehouse'] ?? 0;
  let expected = items ? itemRows : 0;
  if (total > 0) {
    const share = Math.max(0, hi - lo + 1) / total;
    for (const [t, n] of Object.entries(p.expected)) if (t !== 'item') expected += n * share;
  }
  return { label: `${items ? 'item, ' : ''}W ${lo}–${hi}${w.currentWarehouse && !w.done ? ` (at ${w.currentWarehouse})` : ''}`, expected };
};
