import type { TprochQueryTime, TprochResult } from '@sledge/protocol';

/** A query this much slower than the base (time ratio) is highlighted as slower; its inverse as faster. */
export const SLOWER_AT = 1.1;

/**
 * Each query's time in a result: the mean over the streams and query sets
 * that ran it without error (power: its one time). undefined where no
 * execution succeeded.
 */
export function queryTimes(r: Pick<TprochResult, 'queries'>): (number | undefined)[] {
  const sum = new Array<number>(22).fill(0);
  const n = new Array<number>(22).fill(0);
  for (const q of r.queries as readonly TprochQueryTime[]) {
    if (q.error || q.query < 1 || q.query > 22) continue;
    sum[q.query - 1]! += q.seconds;
    n[q.query - 1]! += 1;
  }
  return sum.map((s, i) => (n[i] ? s / n[i]! : undefined));
}

export interface RatioRow {
  query: number;
  base: number | undefined;
  other: number | undefined;
  /** other / base: > 1 the other job was slower. */
  ratio: number | undefined;
  verdict: 'slower' | 'faster' | 'same' | 'unknown';
}

/** Query by query: the other job's time against the base job's. */
export function queryRatios(base: Pick<TprochResult, 'queries'>, other: Pick<TprochResult, 'queries'>, slowAt = SLOWER_AT): RatioRow[] {
  const b = queryTimes(base);
  const o = queryTimes(other);
  return b.map((bt, i) => {
    const ot = o[i];
    const ratio = bt !== undefined && ot !== undefined && bt > 0 ? ot / bt : undefined;
    const verdict = ratio === undefined ? 'unknown' : ratio >= slowAt ? 'slower' : ratio <= 1 / slowAt ? 'faster' : 'same';
    return { query: i + 1, base: bt, other: ot, ratio, verdict };
  });
}

/** The geometric mean of the ratios known: how much slower (> 1) or faster the other job was overall. */
export function ratioGeomean(rows: readonly RatioRow[]): number | undefined {
  const rs = rows.map((r) => r.ratio).filter((r): r is number => r !== undefined && r > 0);
  return rs.length ? Math.exp(rs.reduce((a, r) => a + Math.log(r), 0) / rs.length) : undefined;
}
