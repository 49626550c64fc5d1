import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/**
 * A latency histogram that keeps every recorded value (µs, integers) with
 * its count, so it crosses a process boundary and merges exactly: what a
 * replica's VUs record instead of perf_hooks histograms (which only merge
 * inside one process). Implements the part of RecordableHistogram the VU
 * loops use (record, count, reset).
 */
export class SparseHist {
  counts = new Map<number, number>();
  count = 0;

  record(us: number | bigint): void {
    const v = Number(us);
    this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
    this.count++;
  }

  reset(): void {
    this.counts = new Map();
    this.count = 0;
  }
}

/** A SparseHist's content after a structured clone (worker message): the prototype is gone. */
export interface SparseLike {
  counts: Map<number, number>;
}

/** value, count, value, count ... (the wire form). */
export type HistPairs = number[];

/** Add value, count pairs into a SparseHist. */
export function mergePairs(into: SparseHist, pairs: HistPairs): void {
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const v = pairs[i]!;
    const c = pairs[i + 1]!;
    into.counts.set(v, (into.counts.get(v) ?? 0) + c);
    into.count += c;
  }
}

export function toPairs(h: SparseLike): HistPairs {
  const out: number[] = [];
  for (const [v, c] of h.counts) out.push(v, c);
  return out;
}

/** Record pairs into a perf_hooks histogram: the same histogram the values would have made recorded one by one. */
export function recordPairs(h: RecordableHistogram, pairs: HistPairs): RecordableHistogram {
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const v = pairs[i]!;
    for (let k = pairs[i + 1]!; k > 0; k--) h.record(v);
  }
  return h;
}

export const pairsToHistogram = (pairs: HistPairs): RecordableHistogram => recordPairs(createHistogram(), pairs);
