import { tprochNewSales, tprochOldSalesKeys, type TprochStream } from '@sledge/core';
import type { TprochRefreshTime } from '@sledge/protocol';
import type { TprochRun } from './session.js';

/** Orders per commit in both refresh functions (HammerDB). */
const COMMIT_EVERY = 1000;
/** Update numbers probed for the first one no earlier job used. */
const MAX_PROBE = 1000;

/**
 * The first update number whose RF1 orders are not in the database yet:
 * each RF1/RF2 pair moves the orders of its update's range to new keys, so
 * a later job continues with the next update rather than inserting keys an
 * earlier job already inserted.
 */
export async function firstFreeUpdate(sh: TprochRun, s: TprochStream): Promise<number> {
  for (let u = 1; u <= MAX_PROBE; u++) {
    const key = Number(tprochNewSales(sh.o.scaleFactor, u)[0]!.order[0]);
    const r = await s.query({ query: 0, statements: [{ sql: `select o_orderkey from orders where o_orderkey = ${key}`, timed: true }] });
    if (r.rows === 0) return u;
  }
  return MAX_PROBE + 1;
}

/** RF1 (new sales) of update u: seconds, or null when a stop cut it short. */
export async function newSales(sh: TprochRun, s: TprochStream, vu: number, stream: number, update: number, trickleMs: number): Promise<number | null> {
  const orders = tprochNewSales(sh.o.scaleFactor, update);
  sh.metric('tproch-refresh', { stream, update, fn: 'rf1', phase: 'start' });
  const t0 = performance.now();
  await s.newSales(orders, { trickleMs, commitEvery: COMMIT_EVERY, stopped: () => sh.halted });
  if (sh.halted) return null;
  const seconds = (performance.now() - t0) / 1000;
  sh.line(vu, `New Sales refresh complete in ${seconds.toFixed(3)} seconds`);
  sh.metric('tproch-refresh', { stream, update, fn: 'rf1', phase: 'end', seconds });
  return seconds;
}

/** RF2 (old sales) of update u: seconds, or null when a stop cut it short. */
export async function oldSales(sh: TprochRun, s: TprochStream, vu: number, stream: number, update: number, trickleMs: number): Promise<number | null> {
  const keys = tprochOldSalesKeys(sh.o.scaleFactor, update);
  sh.metric('tproch-refresh', { stream, update, fn: 'rf2', phase: 'start' });
  const t0 = performance.now();
  await s.oldSales(keys, { trickleMs, commitEvery: COMMIT_EVERY, stopped: () => sh.halted });
  if (sh.halted) return null;
  const seconds = (performance.now() - t0) / 1000;
  sh.line(vu, `Old Sales refresh complete in ${seconds.toFixed(3)} seconds`);
  sh.metric('tproch-refresh', { stream, update, fn: 'rf2', phase: 'end', seconds });
  return seconds;
}

export interface RefreshOutcome {
  refreshes: TprochRefreshTime[];
  endedAt: number;
}

/** The throughput test's refresh stream (VU 1): updateSets × (RF1, RF2) with the trickle delay, from update `first`. */
export async function runRefreshStream(sh: TprochRun, s: TprochStream, stream: number, first: number): Promise<RefreshOutcome> {
  const vu = 1;
  const out: RefreshOutcome = { refreshes: [], endedAt: 0 };
  const orders = tprochOldSalesKeys(sh.o.scaleFactor, first).length;
  try {
    const t0 = performance.now();
    for (let k = 0; k < sh.o.updateSets && !sh.halted; k++) {
      const u = first + k;
      const rf1 = await newSales(sh, s, vu, stream, u, sh.o.trickleMs);
      if (rf1 === null) break;
      const rf2 = await oldSales(sh, s, vu, stream, u, sh.o.trickleMs);
      if (rf2 === null) break;
      out.refreshes.push({ update: u, rf1Seconds: rf1, rf2Seconds: rf2, orders });
      sh.line(vu, `Completed update set(s) ${k + 1} in ${Math.round((performance.now() - t0) / 1000)} seconds`);
    }
    sh.line(vu, `Completed ${out.refreshes.length} update set(s)`);
    return out;
  } catch (e) {
    sh.fail(e);
    throw e;
  } finally {
    out.endedAt = Date.now();
  }
}
