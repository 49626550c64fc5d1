import { WAIT_CLASSES, type AshReport, type AshSample } from '@sledge/protocol';

/**
 * Active session history in the browser: the same arithmetic as the
 * server's GET /jobs/{id}/ash (average active sessions per class per bucket,
 * tops as shares of all sampled activity), applied to the samples the page
 * holds. The page uses it for the live tail of the load chart, for the
 * drilldowns (an event's SQL, a SQL's activity over time) and where the REST
 * report is out of reach (a shared link on a server with an API token).
 */

/** At most this many buckets per range (the server uses the same). */
export const MAX_BUCKETS = 600;
/** Rows per top list. */
export const TOP = 25;

export interface Range {
  from?: number | undefined;
  to?: number | undefined;
}

/** One bucket of the load chart: average active sessions per wait class. */
export interface AshBucket {
  ts: number;
  aas: Record<string, number>;
}

export interface AshSeries {
  bucketMs: number;
  buckets: AshBucket[];
}

export type AshTops = Pick<AshReport, 'from' | 'to' | 'topEvents' | 'topSql' | 'topSessions'>;

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Bucket width for a span: whole seconds, at most MAX_BUCKETS buckets. */
export function bucketMsFor(spanMs: number): number {
  return Math.max(1000, Math.ceil(Math.max(1000, spanMs) / MAX_BUCKETS / 1000) * 1000);
}

/** The range a report over these samples covers (the server's defaults: first sample .. last sample + 1 s). */
export function resolveRange(samples: readonly AshSample[], range: Range = {}): { from: number; to: number } {
  const from = range.from ?? samples[0]?.ts ?? 0;
  const to = range.to ?? (samples.length ? samples[samples.length - 1]!.ts : from) + 1000;
  return { from, to };
}

/** Samples with from <= ts <= to (samples are in time order). */
export function inRange(samples: readonly AshSample[], range: Range): AshSample[] {
  if (range.from === undefined && range.to === undefined) return samples as AshSample[];
  const from = range.from ?? -Infinity;
  const to = range.to ?? Infinity;
  return samples.filter((s) => s.ts >= from && s.ts <= to);
}

/** SQL identity as the server groups it: the engine's id, else the first 80 characters of the text. */
export const sqlKey = (s: AshSample): string | undefined => s.sqlId ?? (s.sql ? s.sql.slice(0, 80) : undefined);

/** Sum of weights per class per bucket on a grid anchored at `from`. */
function bucketSums(samples: readonly AshSample[], from: number, bucketMs: number): Map<number, Record<string, number>> {
  const buckets = new Map<number, Record<string, number>>();
  for (const s of samples) {
    const b = Math.floor((s.ts - from) / bucketMs) * bucketMs + from;
    let row = buckets.get(b);
    if (!row) buckets.set(b, (row = {}));
    row[s.waitClass] = (row[s.waitClass] ?? 0) + (s.weight ?? 1);
  }
  return buckets;
}

function toSeries(sums: Map<number, Record<string, number>>, bucketMs: number): AshBucket[] {
  const per = bucketMs / 1000;
  return [...sums.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([ts, row]) => ({ ts, aas: Object.fromEntries(WAIT_CLASSES.filter((c) => row[c]).map((c) => [c, round(row[c]! / per)])) }));
}

/** Load over time: average active sessions per class per bucket (bucket width from the span unless given). */
export function ashSeries(samples: readonly AshSample[], range: Range = {}, opts: { bucketMs?: number; anchor?: number } = {}): AshSeries {
  const r = resolveRange(samples, range);
  const bucketMs = opts.bucketMs ?? bucketMsFor(r.to - r.from);
  const within = inRange(samples, range);
  return { bucketMs, buckets: toSeries(bucketSums(within, opts.anchor ?? r.from, bucketMs), bucketMs) };
}

/** Top events, SQL and sessions for a range, exactly as the server's report computes them. */
export function ashTops(samples: readonly AshSample[], range: Range = {}): AshTops {
  const { from, to } = resolveRange(samples, range);
  const within = inRange(samples, range);
  const seconds = Math.max(1000, to - from) / 1000;
  const events = new Map<string, { event: string; waitClass: string; w: number }>();
  const sqls = new Map<string, { sqlId: string; sql: string; w: number; byClass: Record<string, number> }>();
  const sessions = new Map<string, { session: string; vu?: number; user?: string; program?: string; w: number; byClass: Record<string, number> }>();
  let total = 0;
  for (const s of within) {
    const w = s.weight ?? 1;
    total += w;
    const ek = `${s.waitClass}\u0000${s.event}`;
    const e = events.get(ek) ?? { event: s.event, waitClass: s.waitClass, w: 0 };
    e.w += w;
    events.set(ek, e);
    const id = sqlKey(s);
    if (id !== undefined) {
      const q = sqls.get(id) ?? { sqlId: id, sql: s.sql ?? '', w: 0, byClass: {} };
      q.w += w;
      q.byClass[s.waitClass] = (q.byClass[s.waitClass] ?? 0) + w;
      if (!q.sql && s.sql) q.sql = s.sql;
      sqls.set(id, q);
    }
    const se = sessions.get(s.session) ?? { session: s.session, ...(s.vu !== undefined ? { vu: s.vu } : {}), ...(s.user ? { user: s.user } : {}), ...(s.program ? { program: s.program } : {}), w: 0, byClass: {} };
    se.w += w;
    se.byClass[s.waitClass] = (se.byClass[s.waitClass] ?? 0) + w;
    sessions.set(s.session, se);
  }
  const pct = (w: number) => (total > 0 ? round((w / total) * 100) : 0);
  const norm = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v / seconds)]));
  const byWeight = <T extends { w: number }>(a: T, b: T) => b.w - a.w;
  return {
    from,
    to,
    topEvents: [...events.values()].sort(byWeight).slice(0, TOP).map((e) => ({ event: e.event, waitClass: e.waitClass, aas: round(e.w / seconds), pct: pct(e.w) })),
    topSql: [...sqls.values()].sort(byWeight).slice(0, TOP).map((q) => ({ sqlId: q.sqlId, sql: q.sql, aas: round(q.w / seconds), pct: pct(q.w), byClass: norm(q.byClass) })),
    topSessions: [...sessions.values()]
      .sort(byWeight)
      .slice(0, TOP)
      .map((s) => ({ session: s.session, ...(s.vu !== undefined ? { vu: s.vu } : {}), ...(s.user ? { user: s.user } : {}), ...(s.program ? { program: s.program } : {}), aas: round(s.w / seconds), pct: pct(s.w), byClass: norm(s.byClass) })),
  };
}

/** Top SQL of the samples that waited on one event (class + event name), within a range. */
export function sqlForEvent(samples: readonly AshSample[], waitClass: string, event: string, range: Range = {}): AshTops['topSql'] {
  const r = resolveRange(samples, range);
  const only = inRange(samples, range).filter((s) => s.waitClass === waitClass && s.event === event);
  return ashTops(only, r).topSql;
}

/** One SQL's load over time by class (the drilldown chart), on the given bucket grid. */
export function sqlActivity(samples: readonly AshSample[], sqlId: string, range: Range = {}, opts: { bucketMs?: number; anchor?: number } = {}): AshSeries {
  const r = resolveRange(samples, range);
  const only = inRange(samples, range).filter((s) => sqlKey(s) === sqlId);
  const bucketMs = opts.bucketMs ?? bucketMsFor(r.to - r.from);
  return { bucketMs, buckets: toSeries(bucketSums(only, opts.anchor ?? r.from, bucketMs), bucketMs) };
}

/** Total sampled activity (sum of weights) a series stands for. */
export function seriesWeight(s: AshSeries): number {
  const per = s.bucketMs / 1000;
  let w = 0;
  for (const b of s.buckets) for (const v of Object.values(b.aas)) w += v * per;
  return w;
}

/** Sum of weights of samples with ts <= until. */
export function sampleWeight(samples: readonly AshSample[], until = Infinity): number {
  let w = 0;
  for (const s of samples) if (s.ts <= until) w += s.weight ?? 1;
  return w;
}

/**
 * The load chart of a live job: a REST report of everything stored when the
 * page opened (the base), plus the samples that arrived after it, bucketed
 * on the base's grid and added in (average active sessions add up across
 * disjoint sets of samples). Without a base the samples alone make the chart.
 */
export function mergeSeries(base: Pick<AshReport, 'from' | 'to' | 'bucketMs' | 'series'> | null, samples: readonly AshSample[]): AshSeries {
  if (!base || !base.series.length) return ashSeries(samples);
  const lastInBase = base.to - 1000;
  const tail = samples.filter((s) => s.ts > lastInBase);
  const sums = new Map<number, Record<string, number>>();
  const per = base.bucketMs / 1000;
  for (const b of base.series) sums.set(b.ts, Object.fromEntries(Object.entries(b.aas).map(([k, v]) => [k, v * per])));
  for (const [ts, row] of bucketSums(tail, base.from, base.bucketMs)) {
    const into = sums.get(ts) ?? {};
    for (const [k, v] of Object.entries(row)) into[k] = (into[k] ?? 0) + v;
    sums.set(ts, into);
  }
  return { bucketMs: base.bucketMs, buckets: toSeries(sums, base.bucketMs) };
}

/** Classes with any activity in a series, in the fixed stacking order (CPU first, at the bottom). */
export function presentClasses(series: AshSeries): string[] {
  const seen = new Set<string>();
  for (const b of series.buckets) for (const [k, v] of Object.entries(b.aas)) if (v > 0) seen.add(k);
  return WAIT_CLASSES.filter((c) => seen.has(c));
}
