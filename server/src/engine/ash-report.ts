import type { JobStore } from '@sledge/jobstore';
import { SledgeError, WAIT_CLASSES, type AshReport, type AshSample, type SamplerStatus } from '@sledge/protocol';
import { ashVisible, type AshAudience } from './ash-visibility.js';

const MAX_BUCKETS = 600;
const TOP = 25;

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Average active sessions over a time range: by wait class per bucket, plus
 * top events, top SQL (split by class) and top sessions for the range —
 * what an ASH view recomputes when a range is brushed. For the 'public'
 * audience (HTML reports, share links) only the samples it may see
 * (ash-visibility.ts); `hidden` counts the others.
 */
export function ashReport(store: JobStore, jobId: string, range: { from?: number; to?: number }, vcpus?: number, audience: AshAudience = 'owner'): AshReport {
  const job = store.getJob(jobId);
  if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${jobId} not found`, { field: 'id' });
  const visible = ashVisible(job, audience);
  const all = store.getMetrics(jobId, 'ash', { ...(range.from !== undefined ? { from: range.from } : {}), ...(range.to !== undefined ? { to: range.to } : {}) });
  // A range is half-open, [from, to): adjacent brushes never count one sampling instant twice,
  // and a 5-second range holds 5 one-second instants (samples sit on a whole-second grid).
  const inRange = all.map((m) => m.data as AshSample).filter((x) => range.to === undefined || x.ts < range.to);
  const samples = visible ? inRange.filter(visible) : inRange;
  const hidden = inRange.length - samples.length;
  const status = store.getMetrics(jobId, 'sampler', {}).map((m) => m.data as SamplerStatus);
  const phases = store.getMetrics(jobId, 'phase', {}).map((m) => m.data as { ts: number; label: string });
  const from = range.from ?? (samples[0]?.ts ?? Date.now());
  const to = range.to ?? (samples[samples.length - 1]?.ts ?? from) + 1000;
  const span = Math.max(1000, to - from);
  const bucketMs = Math.max(1000, Math.ceil(span / MAX_BUCKETS / 1000) * 1000);
  const seconds = span / 1000;

  // The sampling instants: one per second (client-side samples carry their own weights).
  const buckets = new Map<number, Record<string, number>>();
  const events = new Map<string, { event: string; waitClass: string; w: number }>();
  const sqls = new Map<string, { sqlId: string; sql: string; w: number; byClass: Record<string, number> }>();
  const sessions = new Map<string, { session: string; vu?: number; user?: string; program?: string; w: number; byClass: Record<string, number> }>();
  let total = 0;
  for (const s of samples) {
    const w = s.weight ?? 1;
    total += w;
    const b = Math.floor((s.ts - from) / bucketMs) * bucketMs + from;
    const row = buckets.get(b) ?? {};
    row[s.waitClass] = (row[s.waitClass] ?? 0) + w;
    buckets.set(b, row);
    const ek = `${s.waitClass}\u0000${s.event}`;
    const e = events.get(ek) ?? { event: s.event, waitClass: s.waitClass, w: 0 };
    e.w += w;
    events.set(ek, e);
    if (s.sqlId || s.sql) {
      const id = s.sqlId ?? s.sql!.slice(0, 80);
      const q = sqls.get(id) ?? { sqlId: id, sql: s.sql ?? '', w: 0, byClass: {} };
      q.w += w;
      q.byClass[s.waitClass] = (q.byClass[s.waitClass] ?? 0) + w;
      if (!q.sql && s.sql) q.sql = s.sql;
      sqls.set(id, q);
    }
    const sk = s.session;
    const se = sessions.get(sk) ?? { session: sk, ...(s.vu !== undefined ? { vu: s.vu } : {}), ...(s.user ? { user: s.user } : {}), ...(s.program ? { program: s.program } : {}), w: 0, byClass: {} };
    se.w += w;
    se.byClass[s.waitClass] = (se.byClass[s.waitClass] ?? 0) + w;
    sessions.set(sk, se);
  }
  const perBucket = bucketMs / 1000;
  const series = [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([ts, row]) => ({ ts, aas: Object.fromEntries(WAIT_CLASSES.filter((c) => row[c]).map((c) => [c, round(row[c]! / perBucket)])) }));
  const pct = (w: number) => (total > 0 ? round((w / total) * 100) : 0);
  const norm = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v / seconds)]));
  return {
    from,
    to,
    bucketMs,
    series,
    topEvents: [...events.values()].sort((a, b) => b.w - a.w).slice(0, TOP).map((e) => ({ event: e.event, waitClass: e.waitClass, aas: round(e.w / seconds), pct: pct(e.w) })),
    topSql: [...sqls.values()].sort((a, b) => b.w - a.w).slice(0, TOP).map((q) => ({ sqlId: q.sqlId, sql: q.sql, aas: round(q.w / seconds), pct: pct(q.w), byClass: norm(q.byClass) })),
    topSessions: [...sessions.values()]
      .sort((a, b) => b.w - a.w)
      .slice(0, TOP)
      .map((s) => ({ session: s.session, ...(s.vu !== undefined ? { vu: s.vu } : {}), ...(s.user ? { user: s.user } : {}), ...(s.program ? { program: s.program } : {}), aas: round(s.w / seconds), pct: pct(s.w), byClass: norm(s.byClass) })),
    phases,
    status,
    ...(vcpus !== undefined ? { vcpus } : {}),
    ...(hidden > 0 ? { hidden } : {}),
  };
}
