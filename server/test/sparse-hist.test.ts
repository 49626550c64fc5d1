import { createHistogram } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { SparseHist, mergePairs, recordPairs, toPairs } from '../src/shared/sparse-hist.js';

// A VU worker ships its interval latency as value, count pairs every second (vu-worker.ts shipper);
// the pool records them into perf_hooks histograms (local runs) or merges them exactly (replicas).
describe('interval latency as value, count pairs', () => {
  const values = [812, 812, 1_204, 95_000, 3, 812, 1_204, 40_001, 7];

  it('records into the same perf_hooks histogram as the values recorded one by one', () => {
    const sparse = new SparseHist();
    const direct = createHistogram();
    for (const v of values) {
      sparse.record(v);
      direct.record(v);
    }
    const viaPairs = recordPairs(createHistogram(), toPairs(sparse));
    expect(viaPairs.count).toBe(values.length);
    for (const p of [1, 25, 50, 75, 90, 99, 100]) expect(viaPairs.percentile(p)).toBe(direct.percentile(p));
    expect([viaPairs.min, viaPairs.max, viaPairs.mean]).toEqual([direct.min, direct.max, direct.mean]);
  });

  it('merges exactly and a reset starts an empty interval', () => {
    const a = new SparseHist();
    for (const v of values) a.record(v);
    const into = new SparseHist();
    mergePairs(into, toPairs(a));
    mergePairs(into, toPairs(a));
    expect(into.count).toBe(2 * values.length);
    expect(into.counts.get(812)).toBe(6);
    expect(into.counts.get(95_000)).toBe(2);
    a.reset();
    expect([a.count, toPairs(a)]).toEqual([0, []]);
  });
});
