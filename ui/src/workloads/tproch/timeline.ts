/**
 * The live TPROC-H picture from a job's metric samples (snapshot `metrics`
 * by kind, then `metric` frames): which query each stream runs, which have
 * finished and how long they took, and the refresh functions. Pure.
 *
 * kind `tproch-query`:   { ts, data: { stream, set, query, position, phase: 'start'|'end', seconds?, rows?, error? } }
 * kind `tproch-refresh`: { ts, data: { stream, update, fn: 'rf1'|'rf2', phase: 'start'|'end', seconds? } }
 * kind `tproch-plan`:    { ts, data: { query, plan, sql? } }
 */

export interface QueryEvent {
  stream: number;
  set: number;
  query: number;
  position: number;
  phase: 'start' | 'end';
  seconds?: number;
  rows?: number;
  error?: string;
}

export interface RefreshEvent {
  stream: number;
  update: number;
  fn: 'rf1' | 'rf2';
  phase: 'start' | 'end';
  seconds?: number;
}

/** One bar of the timeline: a query (or RF1/RF2) from its start to its end (still running: to now). */
export interface Segment {
  /** 'q5', 'rf1' ... */
  op: string;
  /** Its name on the bar: Q5, RF1. */
  label: string;
  stream: number;
  set: number;
  /** Query: position in the stream's order; refresh: update number. */
  position: number;
  start: number;
  /** undefined while it runs. */
  end: number | undefined;
  seconds?: number;
  rows?: number;
  error?: string;
}

/** One row of the timeline. */
export interface TimelineRow {
  /** 'stream:0', 'stream:2', 'refresh'. */
  key: string;
  label: string;
  segments: Segment[];
}

export interface Timeline {
  rows: TimelineRow[];
  /** Finished queries (end seen), in the order they finished. */
  finished: Segment[];
  /** Queries and refreshes running now. */
  running: Segment[];
  /** First start and last event time (ms); undefined before any. */
  from: number | undefined;
  to: number | undefined;
}

interface Item<T> {
  ts: number;
  data: T;
}

const items = <T>(metrics: Record<string, unknown[]>, kind: string): Item<T>[] =>
  ((metrics[kind] ?? []) as Item<T>[]).filter((m) => m && typeof m === 'object' && typeof m.ts === 'number' && m.data && typeof m.data === 'object');

/** A stored EXPLAIN plan and the query text it explains (absent in runs stored before the text was kept). */
export interface QueryPlan {
  plan: string;
  sql?: string;
}

/** One stored plan record (a `tproch-plan` sample's data, or GET /jobs/:id/plans' entry) by its query number; null when it is not one. */
export function planEntry(d: { query?: unknown; plan?: unknown; sql?: unknown }): [number, QueryPlan] | null {
  const q = typeof d.query === 'number' ? d.query : Number(String(d.query).replace(/^q/i, ''));
  if (!Number.isInteger(q) || typeof d.plan !== 'string') return null;
  return [q, { plan: d.plan, ...(typeof d.sql === 'string' ? { sql: d.sql } : {}) }];
}

/** One operator of a stored query profile (depth-first from the root). */
export interface ProfileOperator {
  depth: number;
  name: string;
  seconds: number;
  rows: number;
  cpuSeconds?: number;
  detail?: string;
}

/** The engine's profile of one query as it ran in a stream and query set (a `tproch-profile` sample's data). */
export interface StoredProfile {
  stream: number;
  set: number;
  /** Query latency as the engine measured it. */
  seconds: number;
  cpuSeconds?: number;
  operators: ProfileOperator[];
}

const fin = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** One stored profile record by its query number; null when it is not one. */
export function profileEntry(d: { query?: unknown; stream?: unknown; set?: unknown; profile?: unknown }): [number, StoredProfile] | null {
  const p = d.profile as { seconds?: unknown; cpuSeconds?: unknown; operators?: unknown } | undefined;
  if (!fin(d.query) || !p || typeof p !== 'object' || !Array.isArray(p.operators)) return null;
  const operators: ProfileOperator[] = [];
  for (const o of p.operators as Record<string, unknown>[]) {
    if (!o || typeof o !== 'object' || !fin(o['depth']) || typeof o['name'] !== 'string' || !fin(o['seconds']) || !fin(o['rows'])) continue;
    operators.push({
      depth: o['depth'],
      name: o['name'],
      seconds: o['seconds'],
      rows: o['rows'],
      ...(fin(o['cpuSeconds']) ? { cpuSeconds: o['cpuSeconds'] } : {}),
      ...(typeof o['detail'] === 'string' ? { detail: o['detail'] } : {}),
    });
  }
  return [d.query, { stream: fin(d.stream) ? d.stream : 0, set: fin(d.set) ? d.set : 1, seconds: fin(p.seconds) ? p.seconds : 0, ...(fin(p.cpuSeconds) ? { cpuSeconds: p.cpuSeconds } : {}), operators }];
}

/** The engine profiles stored with the job (`tproch-profile`), by query number: every stream's and set's, in the order they ran. */
export function profilesOf(metrics: Record<string, unknown[]>): Map<number, StoredProfile[]> {
  const out = new Map<number, StoredProfile[]>();
  for (const m of items<{ query?: unknown }>(metrics, 'tproch-profile')) {
    const e = profileEntry(m.data);
    if (!e) continue;
    const list = out.get(e[0]) ?? [];
    list.push(e[1]);
    out.set(e[0], list);
  }
  return out;
}

/** The EXPLAIN plans stored with the job, by query number (a later plan of a query replaces an earlier one). */
export function plansOf(metrics: Record<string, unknown[]>): Map<number, QueryPlan> {
  const out = new Map<number, QueryPlan>();
  for (const m of items<{ query: number | string; plan: string; sql?: string }>(metrics, 'tproch-plan')) {
    const e = planEntry(m.data);
    if (e) out.set(...e);
  }
  return out;
}

/**
 * The timeline from the samples. `refreshOwnRow`: refresh functions get a
 * row of their own (throughput: the refresh stream); otherwise they sit on
 * their stream's row (power: RF1 before the queries, RF2 after).
 */
export function timelineOf(metrics: Record<string, unknown[]>, refreshOwnRow: boolean, now?: number): Timeline {
  const rows = new Map<string, TimelineRow>();
  const open = new Map<string, Segment>();
  const finished: Segment[] = [];
  let from: number | undefined;
  let to: number | undefined;
  const rowOf = (key: string, label: string) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { key, label, segments: [] }));
    return r;
  };
  const seen = (ts: number) => {
    if (from === undefined || ts < from) from = ts;
    if (to === undefined || ts > to) to = ts;
  };
  const close = (seg: Segment, ts: number, seconds: number | undefined) => {
    seg.end = ts;
    if (seconds !== undefined) {
      seg.seconds = seconds;
      // The server times the query itself: the bar spans its own time, ending at its end. The start frame
      // is sent before the session prepares it (the first query of a stream waits for the stream's start-up),
      // and a start frame that arrived late must not shorten it either.
      seg.start = ts - seconds * 1000;
    }
  };
  for (const { ts, data: d } of items<QueryEvent>(metrics, 'tproch-query')) {
    seen(ts);
    const id = `q|${d.stream}|${d.set}|${d.query}`;
    const row = rowOf(`stream:${d.stream}`, d.stream === 0 ? 'Power stream' : `Stream ${d.stream}`);
    if (d.phase === 'start') {
      const seg: Segment = { op: `q${d.query}`, label: `Q${d.query}`, stream: d.stream, set: d.set, position: d.position, start: ts, end: undefined };
      open.set(id, seg);
      row.segments.push(seg);
      continue;
    }
    let seg = open.get(id);
    open.delete(id);
    if (!seg) {
      // The end without its start (the start was trimmed or lost): place it by its time.
      seg = { op: `q${d.query}`, label: `Q${d.query}`, stream: d.stream, set: d.set, position: d.position, start: ts - (d.seconds ?? 0) * 1000, end: undefined };
      row.segments.push(seg);
    }
    close(seg, ts, d.seconds);
    if (d.rows !== undefined) seg.rows = d.rows;
    if (d.error) seg.error = d.error;
    finished.push(seg);
  }
  for (const { ts, data: d } of items<RefreshEvent>(metrics, 'tproch-refresh')) {
    seen(ts);
    const id = `r|${d.stream}|${d.update}|${d.fn}`;
    const row = refreshOwnRow ? rowOf('refresh', 'Refresh stream') : rowOf(`stream:${d.stream}`, d.stream === 0 ? 'Power stream' : `Stream ${d.stream}`);
    if (d.phase === 'start') {
      const seg: Segment = { op: d.fn, label: d.fn.toUpperCase(), stream: d.stream, set: d.update, position: d.update, start: ts, end: undefined };
      open.set(id, seg);
      row.segments.push(seg);
      continue;
    }
    let seg = open.get(id);
    open.delete(id);
    if (!seg) {
      seg = { op: d.fn, label: d.fn.toUpperCase(), stream: d.stream, set: d.update, position: d.update, start: ts - (d.seconds ?? 0) * 1000, end: undefined };
      row.segments.push(seg);
    }
    close(seg, ts, d.seconds);
  }
  if (now !== undefined && open.size && (to === undefined || now > to)) to = now;
  const order = (k: string) => (k === 'refresh' ? Number.MAX_SAFE_INTEGER : Number(k.slice('stream:'.length)));
  const sorted = [...rows.values()].sort((a, b) => order(a.key) - order(b.key));
  for (const r of sorted) r.segments.sort((a, b) => a.start - b.start);
  return { rows: sorted, finished, running: [...open.values()], from, to };
}
