/** Test fixtures: TPROC-H jobs, results and metric samples (made up for tests, labelled as such). */
import type { Job, TprochQueryTime, TprochResult } from '@sledge/protocol';
import { job } from '../../live/fixtures.js';

/** Appendix A's row 0 order of the power stream (TPC-H): the position of each query is its index + 1. */
export const POWER_ORDER = [14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19, 5, 7, 12];

/** Query times of one stream: query q takes `secondsOf(q)`; q listed in `failed` has an error and no rows. */
export function streamTimes(stream: number, secondsOf: (q: number) => number, failed: readonly number[] = [], set = 1): TprochQueryTime[] {
  return POWER_ORDER.map((q, i) => {
    const t: TprochQueryTime = { stream, set, query: q, position: i + 1, seconds: secondsOf(q), rows: failed.includes(q) ? 0 : q * 10 };
    if (failed.includes(q)) t.error = `Q${q} failed: canceling statement due to statement timeout`;
    return t;
  });
}

export function tprochResultFixture(over: Partial<TprochResult> = {}): TprochResult {
  const queries = over.queries ?? streamTimes(0, (q) => q / 10);
  return {
    mode: 'power',
    scaleFactor: 0.01,
    standardScale: false,
    streams: 1,
    dop: 2,
    validation: false,
    queries,
    streamResults: [{ stream: 0, seconds: 3, completedSets: 1, geomean: 0.9, queriesReturningRows: 22 }],
    refreshes: [],
    geomean: 0.9,
    elapsedSeconds: 25.3,
    powerAtSize: 1234.5,
    metricsNote: 'Power@Size from queries only: refresh off',
    errors: queries.filter((q) => q.error).length,
    line: 'Geometric mean of query times returning rows (22) is 0.90000',
    ...over,
  };
}

export const tprochJob = (over: Partial<Job> = {}): Job =>
  job({
    workload: 'tproch',
    engine: 'sqlite',
    status: 'completed',
    config: { workload: 'tproch', tproch: { scaleFactor: 0.01, mode: 'power', querySets: 1, dop: 2, refresh: false } },
    ...over,
  });

/** A `tproch-query` metric sample. */
export const qSample = (ts: number, data: { stream: number; set?: number; query: number; position: number; phase: 'start' | 'end'; seconds?: number; rows?: number; error?: string }) => ({ ts, data: { set: 1, ...data } });
/** A `tproch-refresh` metric sample. */
export const rSample = (ts: number, data: { stream: number; update: number; fn: 'rf1' | 'rf2'; phase: 'start' | 'end'; seconds?: number }) => ({ ts, data });
