import { fitUsl, latencyKnee, type LatencyKnee, type UslPoint, type UslResult } from '@sledge/core';
import type { JobStore } from '@sledge/jobstore';
import { SledgeError, workloadDef, type AshReport, type CpuSample, type ProfileScalability, type ScalabilityStep, type WaitGrowth } from '@sledge/protocol';
import { ashReport } from './ash-report.js';
import type { AshAudience } from './ash-visibility.js';
import { jobAgent } from './job-cpus.js';
import { latencyMs } from './thresholds.js';

/** The latency whose knee is looked for (docs/scalability.md). */
const LATENCY = { fn: 'p95', op: 'neworder' } as const;
/** Classes and events named per transition, and from the fewest VUs to the most. */
const TOP_STEP = 3;
const TOP_ALL = 5;
/** A share must grow by at least this many percentage points to be named. */
const MIN_GROWTH = 1;

/** A wait class's or event's share of a step's active sessions (% of ASH samples). */
type Share = { kind: 'class' | 'event'; name: string; waitClass: string; pct: number };
type Run = ReturnType<JobStore['profileJobs']>[number];

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r2 = (x: number) => Math.round(x * 100) / 100;
const meanOf = (xs: readonly (number | undefined)[]): number | undefined => {
  const v = xs.filter((x): x is number => x !== undefined && Number.isFinite(x));
  return v.length ? r2(mean(v)) : undefined;
};

/** Mean busy % (100 − idle of the 'all' line) of the job's database-host agent over its measured window (else the whole job). */
function serverCpu(store: JobStore, jobId: string): number | undefined {
  const job = store.getJob(jobId)!;
  const label = jobAgent(store, job, true)?.[0];
  const window = measuredWindow(store, jobId);
  const busy = store
    .getMetrics(jobId, 'cpu', { ...(label ? { source: label } : {}), ...(window ?? {}) })
    .map((m) => (m.data as CpuSample).cpus?.find((c) => c.cpu === 'all'))
    .filter((c) => c !== undefined)
    .map((c) => 100 - c.idle);
  return busy.length ? mean(busy) : undefined;
}

/** The measured window of a run, [measuring, stopping), from its phase markers; undefined when it has none. */
function measuredWindow(store: JobStore, jobId: string): { from: number; to: number } | undefined {
  const phases = store.getMetrics(jobId, 'phase', {}).map((m) => m.data as { ts: number; label: string });
  const from = phases.find((x) => x.label === 'measuring')?.ts;
  const to = phases.find((x) => x.label === 'stopping')?.ts;
  return from !== undefined && to !== undefined && to > from ? { from, to } : undefined;
}

/**
 * Shares (% of ASH samples) by wait class and by event, and the average active
 * sessions, over the run's measured window (the whole job when it has no
 * window or no sample inside it).
 */
function waitShares(store: JobStore, jobId: string, audience: AshAudience): { shares: Map<string, Share>; aas?: number } {
  const window = measuredWindow(store, jobId);
  const inWindow = window ? sharesOf(ashReport(store, jobId, window, undefined, audience)) : undefined;
  return inWindow && inWindow.aas !== undefined ? inWindow : sharesOf(ashReport(store, jobId, {}, undefined, audience));
}

function sharesOf(a: AshReport): { shares: Map<string, Share>; aas?: number } {
  const perBucket = a.bucketMs / 1000;
  const byClass = new Map<string, number>();
  for (const b of a.series) for (const [c, v] of Object.entries(b.aas)) byClass.set(c, (byClass.get(c) ?? 0) + v * perBucket);
  const total = [...byClass.values()].reduce((x, y) => x + y, 0);
  const shares = new Map<string, Share>();
  if (total > 0) for (const [c, w] of byClass) shares.set(`class\u0000${c}`, { kind: 'class', name: c, waitClass: c, pct: (w / total) * 100 });
  for (const e of a.topEvents) shares.set(`event\u0000${e.waitClass}\u0000${e.event}`, { kind: 'event', name: e.event, waitClass: e.waitClass, pct: e.pct });
  const seconds = Math.max(1, (a.to - a.from) / 1000);
  return { shares, ...(total > 0 ? { aas: r2(total / seconds) } : {}) };
}

/** Per key, the growth in percentage points from `a` to `b`, largest first, at least MIN_GROWTH. */
function growth(a: Map<string, Share>, b: Map<string, Share>, kind: 'class' | 'event', top: number): WaitGrowth[] {
  // An event named as its class (PostgreSQL's CPU: active with no wait event) says what the class line says.
  const keys = new Set([...a.keys(), ...b.keys()].filter((k) => k.startsWith(`${kind}\u0000`) && !(kind === 'event' && (a.get(k) ?? b.get(k))!.name === (a.get(k) ?? b.get(k))!.waitClass)));
  const out: WaitGrowth[] = [];
  for (const k of keys) {
    const from = a.get(k);
    const to = b.get(k);
    const d = (to?.pct ?? 0) - (from?.pct ?? 0);
    if (d >= MIN_GROWTH) out.push({ kind, name: (to ?? from)!.name, waitClass: (to ?? from)!.waitClass, fromPct: r2(from?.pct ?? 0), toPct: r2(to?.pct ?? 0), deltaPct: r2(d) });
  }
  return out.sort((x, y) => y.deltaPct - x.deltaPct).slice(0, top);
}

const fmt = (x: number) => (Number.isInteger(x) || x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toPrecision(3));
/** σ and κ: three decimals, or two significant digits below 0.01 (κ is often 1e-4). */
const fmtSmall = (x: number) => (x === 0 ? '0' : x >= 0.01 ? x.toFixed(3) : x.toPrecision(2));


/** One step per VU count (repeats averaged), and each step's shares by class/event key. */
function buildSteps(store: JobStore, runs: readonly Run[], vuCounts: readonly number[], audience: AshAudience): { steps: ScalabilityStep[]; shareMaps: Map<string, Share>[] } {
  const perJob = new Map(
    runs.map((r) => {
      const job = store.getJob(r.jobId)!;
      const def = workloadDef(job.workload);
      const result = job.result as Record<string, unknown> | undefined;
      const lat = def ? latencyMs(`${LATENCY.fn}(${LATENCY.op})`, { def, ...(result ? { result } : {}), timings: store.getTimings(job.id, { vu: 0 }) }) : undefined;
      const cpu = result?.['clientCpuMsPer1000Tx'];
      return [r.jobId, { lat, clientCpu: typeof cpu === 'number' ? cpu : undefined, serverCpu: serverCpu(store, r.jobId), ...waitShares(store, r.jobId, audience) }] as const;
    }),
  );
  const shareMaps: Map<string, Share>[] = [];
  const steps: ScalabilityStep[] = vuCounts.map((vus) => {
    const rs = runs.filter((r) => r.activeVus === vus);
    const data = rs.map((r) => perJob.get(r.jobId)!);
    // Average the repeats' shares key by key (a key absent from a run counts 0 there).
    const merged = new Map<string, Share>();
    for (const d of data) for (const [k, v] of d.shares) merged.set(k, { ...v, pct: (merged.get(k)?.pct ?? 0) + v.pct / data.length });
    shareMaps.push(merged);
    const latency = meanOf(data.map((d) => d.lat));
    const clientCpu = meanOf(data.map((d) => d.clientCpu));
    const srvCpu = meanOf(data.map((d) => d.serverCpu));
    const aas = meanOf(data.map((d) => d.aas));
    return {
      vus,
      jobIds: rs.map((r) => r.jobId),
      nopm: r2(mean(rs.map((r) => r.nopm))),
      tpm: r2(mean(rs.map((r) => r.tpm))),
      ...(latency !== undefined ? { latencyMs: latency } : {}),
      ...(clientCpu !== undefined ? { clientCpuMsPer1000Tx: clientCpu } : {}),
      ...(srvCpu !== undefined ? { serverCpuPct: srvCpu } : {}),
      ...(aas !== undefined ? { aas } : {}),
      waits: [...merged.values()]
        .filter((w) => w.pct > 0)
        .sort((a, b) => (a.kind === b.kind ? b.pct - a.pct : a.kind === 'class' ? -1 : 1))
        .map((w) => ({ ...w, pct: r2(w.pct) })),
    };
  });
  return { steps, shareMaps };
}

/** The one-paragraph reading: σ, κ, the peak, the knee and the waits that grew most. */
function summaryText(metric: 'nopm' | 'tpm', usl: UslResult, knee: LatencyKnee, kneeProblem: string | undefined, grewMost: readonly WaitGrowth[]): string {
  const parts: string[] = [];
  const unit = metric.toUpperCase();
  if (usl.ok) {
    parts.push(`Contention σ=${fmtSmall(usl.sigma)}, coherency κ=${fmtSmall(usl.kappa)} (R²=${usl.r2.toFixed(3)})`);
    if (usl.peak) parts.push(`predicted peak ${fmt(usl.peak.n)} VU${usl.peak.n === 1 ? '' : 's'} at ${fmt(usl.peak.x)} ${unit}`);
    else if (usl.ceiling !== null) parts.push(`no peak: throughput approaches ${fmt(usl.ceiling)} ${unit}`);
    else parts.push('no peak: scaling is linear over the measured range');
  } else parts.push(`No fit: ${usl.message}`);
  parts.push(knee.ok ? `the latency knee at ${fmt(knee.n)} VUs (${LATENCY.fn} ${LATENCY.op} ${fmt(knee.latency)} ms)` : `no latency knee (${kneeProblem})`);
  const named = [...grewMost.filter((g) => g.kind === 'class').slice(0, 2), ...grewMost.filter((g) => g.kind === 'event').slice(0, 3)];
  const grewText = named.map((g) => `${g.kind === 'event' ? `${g.waitClass}:${g.name}` : g.name} +${fmt(g.deltaPct)} pts`);
  parts.push(grewText.length ? `waits that grew most: ${grewText.join(', ')}` : `no wait class or event grew its share by ${MIN_GROWTH} point or more`);
  return `${parts.join('; ')}.`;
}

/**
 * The scalability explainer of a performance profile (docs/scalability.md):
 * the USL fit of throughput against active VUs, the latency knee, and the
 * wait classes and events whose share of active sessions grew from each VU
 * count to the next. Repeats at one VU count are averaged into one step (the
 * fit uses every run). Throws a 404 for an unknown profile and a 409 when it
 * has completed runs at fewer than 3 VU counts.
 */
export function profileScalability(store: JobStore, profileId: number, audience: AshAudience = 'owner'): ProfileScalability {
  const runs = store.profileJobs(profileId);
  if (!runs.length) throw new SledgeError('SLEDGE_E_NOT_FOUND', `profile ${profileId} has no completed run jobs`, { field: 'id' });
  const vuCounts = [...new Set(runs.map((r) => r.activeVus))].sort((a, b) => a - b);
  if (vuCounts.length < 3) {
    throw new SledgeError('SLEDGE_E_CONFLICT', `profile ${profileId} has completed runs at ${vuCounts.length} VU count${vuCounts.length === 1 ? '' : 's'} (${vuCounts.join(', ')}); a scalability fit needs runs at 3 or more`, {
      field: 'id',
    });
  }
  const metric = runs.some((r) => r.nopm > 0) ? 'nopm' : 'tpm';
  const { steps, shareMaps } = buildSteps(store, runs, vuCounts, audience);

  const usl = fitUsl(runs.map((r): UslPoint => ({ n: r.activeVus, x: r[metric] })));
  const latencyPoints = steps.filter((s) => s.latencyMs !== undefined).map((s) => ({ n: s.vus, latency: s.latencyMs! }));
  const knee = latencyKnee(latencyPoints);
  const kneeProblem = knee.ok ? undefined : !latencyPoints.length ? `the runs kept no ${LATENCY.op} times (turn on the time profile, tprocc.timeProfile)` : knee.message;

  const waitGrowth = steps.slice(1).map((s, i) => ({
    fromVus: steps[i]!.vus,
    toVus: s.vus,
    grew: [...growth(shareMaps[i]!, shareMaps[i + 1]!, 'class', TOP_STEP), ...growth(shareMaps[i]!, shareMaps[i + 1]!, 'event', TOP_STEP)],
  }));
  const first = shareMaps[0]!;
  const last = shareMaps[shareMaps.length - 1]!;
  const grewMost = [...growth(first, last, 'class', TOP_ALL), ...growth(first, last, 'event', TOP_ALL)];

  return {
    profileId,
    engine: runs[0]!.engine,
    metric,
    steps,
    fit: usl.ok ? { x1: usl.x1, sigma: usl.sigma, kappa: usl.kappa, ...(usl.se ? { se: usl.se } : {}), r2: usl.r2, points: usl.points, distinctN: usl.distinctN, dof: usl.dof, peak: usl.peak, ceiling: usl.ceiling, curve: usl.curve, iterations: usl.iterations } : null,
    ...(usl.ok ? {} : { fitProblem: usl.message }),
    latencyMetric: `${LATENCY.fn}(${LATENCY.op})`,
    knee: knee.ok ? { vus: knee.n, latencyMs: knee.latency, depth: knee.depth } : null,
    ...(kneeProblem ? { kneeProblem } : {}),
    waitGrowth,
    grewMost,
    summary: summaryText(metric, usl, knee, kneeProblem, grewMost),
  };
}
