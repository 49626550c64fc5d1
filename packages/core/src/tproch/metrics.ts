/**
 * TPROC-H metrics: HammerDB's geometric mean of query times, and the TPC-H
 * metrics (Power@Size, Throughput@Size, QphH@Size) computed as the
 * specification's clause 5.4 defines them. Sledge's numbers: not audited.
 */

export interface QueryTiming {
  seconds: number;
  rows: number;
}

/** HammerDB's figure: (Π t)^(1/k) over the k queries that returned rows (0 when none did). */
export function geomeanReturningRows(times: readonly QueryTiming[]): { geomean: number; count: number } {
  const ok = times.filter((t) => t.rows > 0);
  if (!ok.length) return { geomean: 0, count: 0 };
  // A 0 s time makes the product 0, as in HammerDB.
  if (ok.some((t) => !(t.seconds > 0))) return { geomean: 0, count: ok.length };
  const logSum = ok.reduce((s, t) => s + Math.log(t.seconds), 0);
  return { geomean: Math.exp(logSum / ok.length), count: ok.length };
}

/** HammerDB's line, `%.5f`. */
export function geomeanLine(g: { geomean: number; count: number }): string {
  return `Geometric mean of query times returning rows (${g.count}) is ${g.geomean.toFixed(5)}`;
}

/**
 * TPC-H clause 5.4.1.4: when the longest interval is more than 1000 times
 * the shortest, every interval below longest/1000 counts as longest/1000
 * (this also keeps a 0 s timing from zeroing the product).
 */
export function clampIntervals(seconds: readonly number[]): number[] {
  const max = Math.max(...seconds);
  if (!(max > 0)) return [...seconds];
  const floor = max / 1000;
  return seconds.map((s) => Math.max(s, floor));
}

export interface PowerInput {
  scaleFactor: number;
  /** The 22 query times of the power stream, seconds. */
  querySeconds: readonly number[];
  /** RF1 and RF2 times, seconds; empty when the refresh functions did not run. */
  refreshSeconds: readonly number[];
}

/**
 * Power@Size = 3600·SF / (Π Qi · Π RFj)^(1/24). Without refresh functions
 * the root is over the 22 queries only (not a TPC-H figure: the caller says
 * so). Undefined when a time is missing or every interval is 0.
 */
export function powerAtSize(p: PowerInput): number | undefined {
  if (p.querySeconds.length !== 22) return undefined;
  if (p.refreshSeconds.length !== 0 && p.refreshSeconds.length !== 2) return undefined;
  const all = clampIntervals([...p.querySeconds, ...p.refreshSeconds]);
  if (all.some((s) => !(s > 0))) return undefined;
  const logMean = all.reduce((s, t) => s + Math.log(t), 0) / all.length;
  return (3600 * p.scaleFactor) / Math.exp(logMean);
}

/** Throughput@Size = (S · 22 · 3600 / Ts) · SF, Ts the measurement interval in seconds. */
export function throughputAtSize(streams: number, seconds: number, scaleFactor: number): number | undefined {
  if (!(seconds > 0) || streams < 1) return undefined;
  return ((streams * 22 * 3600) / seconds) * scaleFactor;
}

/** QphH@Size = √(Power@Size · Throughput@Size). */
export function qphh(power: number | undefined, throughput: number | undefined): number | undefined {
  if (power === undefined || throughput === undefined) return undefined;
  return Math.sqrt(power * throughput);
}
