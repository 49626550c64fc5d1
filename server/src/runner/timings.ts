import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { LatencySample, TimingRow } from '@sledge/protocol';
import type { VuProfile } from '../shared/messages.js';

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const ms = (us: number) => us / 1000;
const DIST_POINTS = [0, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100];

function row(proc: string, vu: number, h: RecordableHistogram, totalNs: number, elapsedMs: number, ratioPct: number): TimingRow {
  const calls = h.count;
  const totalMs = totalNs / 1e6;
  return {
    proc,
    vu,
    calls,
    minMs: r3(ms(h.min)),
    avgMs: r3(calls ? totalMs / calls : 0),
    maxMs: r3(ms(h.max)),
    totalMs: r3(totalMs),
    p25Ms: r3(ms(h.percentile(25))),
    p50Ms: r3(ms(h.percentile(50))),
    p75Ms: r3(ms(h.percentile(75))),
    p95Ms: r3(ms(h.percentile(95))),
    p99Ms: r3(ms(h.percentile(99))),
    sdMs: r3(ms(h.stddev)),
    ratioPct: r3(ratioPct),
    elapsedMs: r3(elapsedMs),
    histogram: DIST_POINTS.map((p) => [p, r3(ms(p === 0 ? h.min : h.percentile(p)))] as [number, number]),
  };
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * HammerDB's time profile from per-VU measured-window histograms
 * (hammerdb.md §7): per-VU rows (when asked) and summary rows (vu = 0):
 * calls and totals summed, min of mins, max of maxes, pooled percentiles,
 * elapsed = median VU elapsed, ratio = (Σtotal / median elapsed · 100) / k.
 * Rows are ordered by ratio, descending. `ops` are the workload's operation
 * names (profile keys), `labels` its report names for them (row proc).
 */
export function timingRows(profiles: VuProfile[], perVu: boolean, ops: readonly string[], labels: readonly string[]): TimingRow[] {
  const active = profiles.filter((p) => p.elapsedMs > 0);
  const k = active.length;
  const medElapsed = median(active.map((p) => p.elapsedMs));
  const out: TimingRow[] = [];
  const summary: TimingRow[] = [];
  ops.forEach((t, i) => {
    const label = labels[i]!;
    const pooled = createHistogram();
    let total = 0;
    for (const p of active) {
      const x = p.perType[t];
      if (!x || x.hist.count === 0) continue;
      pooled.add(x.hist);
      total += x.totalNs;
      if (perVu) out.push(row(label, p.position, x.hist, x.totalNs, p.elapsedMs, (x.totalNs / 1e6 / p.elapsedMs) * 100));
    }
    if (pooled.count > 0 && k > 0) summary.push(row(label, 0, pooled, total, medElapsed, ((total / 1e6 / medElapsed) * 100) / k));
  });
  summary.sort((a, b) => b.ratioPct - a.ratioPct);
  out.sort((a, b) => a.vu - b.vu || b.ratioPct - a.ratioPct);
  return [...summary, ...out];
}

/**
 * Summary rows (vu = 0) of histograms gathered over part of a window (the
 * abort watch's running figures): calls, min/avg/max and percentiles, with
 * the window's elapsed time. `labels` are the operations' report names.
 */
export function windowRows(hists: Partial<Record<string, RecordableHistogram>>, ops: readonly string[], labels: readonly string[], elapsedMs: number): TimingRow[] {
  const out: TimingRow[] = [];
  ops.forEach((t, i) => {
    const h = hists[t];
    if (!h || h.count === 0) return;
    // The histograms count microseconds; the row's total is in ns.
    const totalNs = h.mean * h.count * 1000;
    out.push(row(labels[i]!, 0, h, totalNs, elapsedMs, elapsedMs > 0 ? (totalNs / 1e6 / elapsedMs) * 100 : 0));
  });
  return out;
}

/** Interval percentiles for the live latency chart, by operation name. */
export function latencySample(ts: number, hists: Partial<Record<string, RecordableHistogram>>, ops: readonly string[]): LatencySample | null {
  const perType: LatencySample['perType'] = {};
  for (const t of ops) {
    const h = hists[t];
    if (!h || h.count === 0) continue;
    perType[t] = { count: h.count, p50: r3(ms(h.percentile(50))), p95: r3(ms(h.percentile(95))), p99: r3(ms(h.percentile(99))), max: r3(ms(h.max)) };
  }
  return Object.keys(perType).length ? { ts, perType } : null;
}
