/**
 * Threshold evaluation: each parsed condition (protocol thresholds.ts) read
 * against a job's result document and time-profile rows. Pure: the caller
 * fetches the job's data (judge.ts). A metric the job does not have is a
 * failure that says so, never a silent pass.
 */
import {
  compare,
  parseThreshold,
  type LatencyFn,
  type ParsedThreshold,
  type ThresholdResult,
  type TimingRow,
  type WorkloadDef,
} from '@sledge/protocol';

/** What a job offers to its thresholds. */
export interface JudgedData {
  def: WorkloadDef;
  /** The result document; undefined when the job ended without one (failed, stopped early). */
  result?: Record<string, unknown>;
  /** Time-profile rows (the summary rows, vu = 0, are read). */
  timings: readonly TimingRow[];
}

/** A value found, or why not. */
type Reading = { value: number } | { missing: string };

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : Math.abs(n) >= 100 ? n.toFixed(1) : Number(n.toPrecision(4)).toString());
const withUnit = (n: number, unit: string): string => (unit === '%' ? `${fmt(n)}%` : unit ? `${fmt(n)} ${unit}` : fmt(n));

/** A number at `path`; an object there counts by its `total` (errors: { total, byClass ... }). */
function numberAt(result: Record<string, unknown>, path: readonly string[]): number | undefined {
  let v: unknown = result;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  if (v !== null && typeof v === 'object' && typeof (v as { total?: unknown }).total === 'number') v = (v as { total: number }).total;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

const PCT_FIELD: Partial<Record<LatencyFn, keyof TimingRow>> = {
  p25: 'p25Ms',
  p50: 'p50Ms',
  p75: 'p75Ms',
  p95: 'p95Ms',
  p99: 'p99Ms',
  min: 'minMs',
  max: 'maxMs',
  avg: 'avgMs',
};
const PCT_OF: Partial<Record<LatencyFn, number>> = { p25: 25, p50: 50, p75: 75, p90: 90, p95: 95, p99: 99 };

/** A percentile from a row's histogram ([percentile, ms] pairs, ascending): the first point at or above it. */
function fromHistogram(h: readonly [number, number][], pct: number): number | undefined {
  const hit = h.find(([p]) => p >= pct);
  return hit?.[1];
}

/** Nearest-rank statistic over raw times (ms). */
function fromSamples(xs: readonly number[], fn: LatencyFn): number {
  const s = [...xs].sort((a, b) => a - b);
  if (fn === 'min') return s[0]!;
  if (fn === 'max') return s[s.length - 1]!;
  if (fn === 'avg') return s.reduce((a, b) => a + b, 0) / s.length;
  const rank = Math.max(1, Math.ceil((PCT_OF[fn]! / 100) * s.length));
  return s[rank - 1]!;
}

function readLatency(t: ParsedThreshold, d: JudgedData): Reading {
  const op = t.op!;
  const fn = t.fn!;
  const names = new Set([op.toLowerCase(), (d.def.timingNames?.[op] ?? op).toLowerCase()]);
  const row = d.timings.find((r) => r.vu === 0 && names.has(r.proc.toLowerCase()));
  if (row) {
    if (row.calls === 0) return { missing: `${op} ran no calls in the measured window` };
    const field = PCT_FIELD[fn];
    if (field) return { value: row[field] as number };
    const v = row.histogram ? fromHistogram(row.histogram, PCT_OF[fn]!) : undefined;
    return v === undefined ? { missing: `the time profile of ${op} keeps no histogram to read ${fn} from (it has p25, p50, p75, p95, p99, min, avg, max)` } : { value: v };
  }
  const samples = d.result && d.def.opSamples ? d.def.opSamples(d.result)[op] : undefined;
  if (samples?.length) return { value: fromSamples(samples, fn) };
  if (!d.result) return { missing: 'the job has no result' };
  return { missing: `the job has no times for ${op}${d.def.timingNames ? ' (its time profile is off: turn it on, e.g. tprocc.timeProfile, to judge latency)' : ''}` };
}

/** A latency statistic such as `p95(neworder)` in ms, read as a threshold would read it; undefined when the job has no times for it. */
export function latencyMs(expr: string, d: JudgedData): number | undefined {
  const r = readLatency(parseThreshold(`${expr}<0`, d.def), d);
  return 'value' in r ? r.value : undefined;
}

/** error_rate(<operation>): that operation's errors / (transactions + errors) in %, from the result (WorkloadDef.opCounts). */
function readOpErrorRate(op: string, d: JudgedData): Reading {
  if (!d.result) return { missing: 'the job has no result' };
  const c = d.def.opCounts?.(d.result)[op];
  if (!c) return { missing: `the result counts nothing for ${op}` };
  if (c.transactions + c.errors === 0) return { missing: `${op} ran no transaction in the measured window` };
  return { value: (c.errors / (c.transactions + c.errors)) * 100 };
}

function readErrorRate(d: JudgedData): Reading {
  if (!d.result) return { missing: 'the job has no result' };
  const errors = numberAt(d.result, ['errors']);
  const tx = numberAt(d.result, ['transactions']);
  if (errors === undefined) return { missing: 'the result counts no errors (errors)' };
  if (tx === undefined) return { missing: 'the result counts no transactions (transactions)' };
  if (tx + errors === 0) return { missing: 'no transaction ran in the measured window' };
  return { value: (errors / (tx + errors)) * 100 };
}

function read(t: ParsedThreshold, d: JudgedData): Reading {
  if (t.kind === 'latency') return readLatency(t, d);
  if (t.kind === 'error_rate') return t.op ? readOpErrorRate(t.op, d) : readErrorRate(d);
  if (!d.result) return { missing: 'the job has no result' };
  const v = numberAt(d.result, t.path!);
  return v === undefined ? { missing: `the result has no ${t.path!.join('.')}` } : { value: v };
}

/** One condition's outcome. */
export function evaluateThreshold(t: ParsedThreshold, d: JudgedData): ThresholdResult {
  const r = read(t, d);
  const limit = withUnit(t.limit, t.unit);
  if ('missing' in r) {
    return { expr: t.expr, metric: t.metric, actual: null, limit: t.limit, unit: t.unit, ok: false, message: `${t.metric}: metric not available for this job: ${r.missing}` };
  }
  const ok = compare(r.value, t.cmp, t.limit);
  const actual = withUnit(r.value, t.unit);
  return {
    expr: t.expr,
    metric: t.metric,
    actual: r.value,
    limit: t.limit,
    unit: t.unit,
    ok,
    message: ok ? `${t.metric} ${actual} ${t.cmp} ${limit}: pass` : `${t.metric} ${actual} is not ${t.cmp} ${limit}: fail`,
  };
}

/** Every condition of a list (strings as stored with the job) against one job. */
export function evaluateThresholds(exprs: readonly string[], d: JudgedData): ThresholdResult[] {
  return exprs.map((e, i) => evaluateThreshold(parseThreshold(e, d.def, `thresholds[${i}]`), d));
}
