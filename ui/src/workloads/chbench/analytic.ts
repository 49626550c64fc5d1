/**
 * The live analytic streams of a CH-benCHmark run from its metric samples
 * (snapshot `metrics` by kind, then `metric` frames). Pure.
 *
 * kind `chbench-query`: { ts, data: { stream, set, query, position, phase: 'start'|'end', seconds?, rows?, error? } }
 *
 * The per-stream timeline is TPROC-H's (same event shape): see `analyticTimeline`.
 */
import type { ChbenchQueryStats } from '@sledge/protocol';
import { timelineOf, type QueryEvent, type Timeline } from '../tproch/timeline.js';

export const CHBENCH_QUERY_METRIC = 'chbench-query';

interface Item {
  ts: number;
  data: QueryEvent;
}

const itemsOf = (samples: readonly unknown[] | undefined): Item[] =>
  ((samples ?? []) as Item[]).filter((m) => m && typeof m === 'object' && typeof m.ts === 'number' && m.data && typeof m.data === 'object' && typeof m.data.stream === 'number');

/** The streams' queries as TPROC-H's timeline draws them: one row per analytic stream, each query a bar. */
export function analyticTimeline(samples: readonly unknown[] | undefined, now?: number): Timeline {
  return timelineOf({ 'tproch-query': [...(samples ?? [])] }, false, now);
}

/** One stream's finished queries counted over time: [ts, queries finished without error by then]. */
export interface StreamProgress {
  stream: number;
  points: [number, number][];
  completed: number;
  errors: number;
}

/**
 * Queries each stream has completed (without error) over time, from their
 * end frames: a step from 0 at the stream's first frame, +1 at each end.
 * Failed queries are counted apart and do not raise the step.
 */
export function streamProgress(samples: readonly unknown[] | undefined): StreamProgress[] {
  const by = new Map<number, StreamProgress>();
  for (const { ts, data: d } of [...itemsOf(samples)].sort((a, b) => a.ts - b.ts)) {
    let s = by.get(d.stream);
    if (!s) by.set(d.stream, (s = { stream: d.stream, points: [[ts, 0]], completed: 0, errors: 0 }));
    if (d.phase !== 'end') continue;
    if (d.error) s.errors += 1;
    else {
      s.completed += 1;
      s.points.push([ts, s.completed]);
    }
  }
  return [...by.values()].sort((a, b) => a.stream - b.stream);
}

/** The analytic figures while a run is live: queries completed and failed, and the pace since the streams' first query started. */
export interface AnalyticLive {
  completed: number;
  errors: number;
  streams: number;
  /** Completed queries per hour since the first query started; undefined before one completed. */
  perHour: number | undefined;
}

export function analyticLive(samples: readonly unknown[] | undefined, now?: number): AnalyticLive {
  const items = itemsOf(samples);
  let completed = 0;
  let errors = 0;
  let from: number | undefined;
  let to: number | undefined;
  const streams = new Set<number>();
  for (const { ts, data: d } of items) {
    streams.add(d.stream);
    from = from === undefined ? ts : Math.min(from, ts);
    to = to === undefined ? ts : Math.max(to, ts);
    if (d.phase !== 'end') continue;
    if (d.error) errors += 1;
    else completed += 1;
  }
  const end = Math.max(to ?? 0, now ?? 0);
  const spanH = from !== undefined ? (end - from) / 3_600_000 : 0;
  return { completed, errors, streams: streams.size, perHour: completed > 0 && spanH > 0 ? completed / spanH : undefined };
}

/**
 * Per query (Q1..Q22) statistics of finished executions, as the result's
 * `perQuery` has them: the result's when there is one, else computed from the
 * live end frames (every execution so far, rampup included).
 */
export function queryStats(samples: readonly unknown[] | undefined): ChbenchQueryStats[] {
  const out = new Map<number, ChbenchQueryStats & { sum: number }>();
  for (const { data: d } of itemsOf(samples)) {
    if (d.phase !== 'end' || d.query < 1 || d.query > 22) continue;
    let q = out.get(d.query);
    if (!q) out.set(d.query, (q = { query: d.query, count: 0, errors: 0, meanSeconds: 0, minSeconds: Infinity, maxSeconds: 0, sum: 0 }));
    if (d.error) {
      q.errors += 1;
      continue;
    }
    const s = d.seconds ?? 0;
    q.count += 1;
    q.sum += s;
    q.minSeconds = Math.min(q.minSeconds, s);
    q.maxSeconds = Math.max(q.maxSeconds, s);
  }
  return [...out.values()]
    .sort((a, b) => a.query - b.query)
    .map(({ sum, ...q }) => ({ ...q, meanSeconds: q.count ? sum / q.count : 0, minSeconds: q.count ? q.minSeconds : 0 }));
}

/** The table's rows: Q1..Q22, each with its stats (undefined: it did not finish in the window). */
export function queryRows(perQuery: readonly ChbenchQueryStats[]): { query: number; stats: ChbenchQueryStats | undefined }[] {
  const by = new Map(perQuery.map((q) => [q.query, q]));
  return Array.from({ length: 22 }, (_, i) => ({ query: i + 1, stats: by.get(i + 1) }));
}
