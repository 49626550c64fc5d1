/**
 * The threshold grammar: `<metric> <op> <value>[unit][:abort[(<delay>)]]`.
 *
 *   metric := <result field> | errors | retries | error_rate | error_rate(<operation>) | <fn>(<operation>)
 *   fn     := p25 | p50 | p75 | p90 | p95 | p99 | min | max | avg       (latency of one operation)
 *   op     := < | <= | > | >= | ==
 *   value  := a decimal number, optionally followed by a unit: ms | s | us | %
 *
 * A result field is any number of the workload's result document (TPROC-C:
 * nopm, tpm, activeVus, clientCpuMsPer1000Tx ...; TPROC-H: geomean, qphh,
 * elapsedSeconds ...), an object's `total` (errors, retries) or a nested
 * number as `a.b`. Names match without regard to case. Times take ms, s or
 * us (a bare number is the metric's own unit: ms for latency, s for fields in
 * seconds); error_rate is a percentage (`1%` or `1`); counts take no unit.
 * Parsing needs only the workload, so a bad expression is refused when the
 * job is created, naming `thresholds[i]` and what to fix.
 *
 * `:abort` (k6's abortOnFail) also judges the condition during the run's
 * measured window, every few seconds on the running figures, and stops the
 * run as soon as it fails; `:abort(30s)` waits 30 s into the window first
 * (k6's delayAbortEval; units ms, s, m; a bare number is seconds).
 */
import { SledgeError } from './errors.js';
import { Problems, validate } from './validate.js';
import { Baseline, DEFAULT_MAX_REGRESSION, ThresholdsField, type BaselineConfig } from './run/thresholds.js';
import type { WorkloadDef } from './workloads/types.js';

export const THRESHOLD_OPS = ['<=', '>=', '==', '<', '>'] as const;
export type ThresholdOp = (typeof THRESHOLD_OPS)[number];
export const LATENCY_FNS = ['p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'min', 'max', 'avg'] as const;
export type LatencyFn = (typeof LATENCY_FNS)[number];

/** What a metric measures: its unit family decides which units a value may carry. */
export type MetricDim = 'count' | 'time' | 'percent';

/** A metric a workload's jobs can be judged on. */
export interface MetricInfo {
  /** Canonical name ('nopm', 'clientCpuMsPer1000Tx', 'errors', 'error_rate'). */
  name: string;
  /** Where in the result document (an object ending in `total` is read as its total). */
  path: string[];
  dim: MetricDim;
  /** Unit of the stored value (time: 'ms' or 's'; percent: '%'; count: ''). */
  unit: 'ms' | 's' | '%' | '';
}

/** Fields every workload may have once the run reports them (issue 12: errors and retries by class). */
const WELL_KNOWN: MetricInfo[] = [
  { name: 'errors', path: ['errors'], dim: 'count', unit: '' },
  { name: 'retries', path: ['retries'], dim: 'count', unit: '' },
  { name: 'firstTryCommits', path: ['firstTryCommits'], dim: 'count', unit: '' },
  { name: 'error_rate', path: [], dim: 'percent', unit: '%' },
];

const isNumberSchema = (s: unknown): boolean => {
  const t = (s as { type?: unknown } | undefined)?.type;
  return t === 'number' || t === 'integer';
};
const propsOf = (s: unknown): Record<string, unknown> | undefined => {
  const p = (s as { type?: unknown; properties?: unknown } | undefined);
  return p?.type === 'object' && p.properties && typeof p.properties === 'object' ? (p.properties as Record<string, unknown>) : undefined;
};

/** The unit a numeric result field is stored in, from its name (…Seconds/…Sec: s, …Ms: ms) or the headline's unit. */
function fieldInfo(def: WorkloadDef, name: string, path: string[]): MetricInfo {
  const last = path[path.length - 1]!;
  if (/(Seconds|Sec)$/.test(last)) return { name, path, dim: 'time', unit: 's' };
  if (/Ms$/.test(last)) return { name, path, dim: 'time', unit: 'ms' };
  if (path.length === 1 && def.headline.field === last && /^s\b/.test(def.headline.unit)) return { name, path, dim: 'time', unit: 's' };
  return { name, path, dim: 'count', unit: '' };
}

const catalogues = new WeakMap<WorkloadDef, Map<string, MetricInfo>>();

/** Every metric of a workload's results by lower-case name: its result schema's numbers, then the well-known ones. */
export function workloadMetrics(def: WorkloadDef): Map<string, MetricInfo> {
  let m = catalogues.get(def);
  if (m) return m;
  m = new Map();
  const add = (i: MetricInfo) => {
    if (!m!.has(i.name.toLowerCase())) m!.set(i.name.toLowerCase(), i);
  };
  for (const [k, s] of Object.entries(propsOf(def.result) ?? {})) {
    if (isNumberSchema(s)) add(fieldInfo(def, k, [k]));
    const inner = propsOf(s);
    if (!inner) continue;
    if (isNumberSchema(inner['total'])) add({ name: k, path: [k], dim: 'count', unit: '' });
    for (const [k2, s2] of Object.entries(inner)) if (isNumberSchema(s2)) add(fieldInfo(def, `${k}.${k2}`, [k, k2]));
  }
  for (const w of WELL_KNOWN) add(w);
  catalogues.set(def, m);
  return m;
}

/** Operation names a latency function accepts, lower case -> the operation: the workload's names and its time profile's (neword -> neworder). */
export function operationNames(def: WorkloadDef): Map<string, string> {
  const m = new Map<string, string>();
  for (const op of def.operations) m.set(op.toLowerCase(), op);
  for (const [op, alias] of Object.entries(def.timingNames ?? {})) m.set(alias.toLowerCase(), op);
  return m;
}

/** A parsed threshold: what to read and the bound, in the metric's own unit. */
export interface ParsedThreshold {
  expr: string;
  /** The expression without its `:abort` option. */
  condition: string;
  /** Canonical: 'nopm', 'p95(neworder)', 'error_rate'. */
  metric: string;
  kind: 'field' | 'latency' | 'error_rate';
  /** kind 'field': where in the result. */
  path?: string[];
  fn?: LatencyFn;
  /** kind 'latency' (and 'error_rate' of one operation): the operation (the workload's name). */
  op?: string;
  cmp: ThresholdOp;
  /** The bound in `unit`. */
  limit: number;
  unit: 'ms' | 's' | '%' | '';
  /** `:abort`: judged during the measured window too, the run stopped when it fails; from `delaySec` into the window. */
  abort?: { delaySec: number };
}

const ABORT_SUFFIX = /:\s*([A-Za-z]*)\s*(?:\(\s*([^()]*?)\s*\))?\s*$/;
const DELAY_UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60 };

/** Split `:abort[(delay)]` off an expression: the condition and the abort option, or why the suffix is wrong. */
function abortSuffix(expr: string, bad: (why: string) => SledgeError): { condition: string; abort?: { delaySec: number } } {
  const m = ABORT_SUFFIX.exec(expr);
  if (!m) return { condition: expr };
  if (m[1]!.toLowerCase() !== 'abort') throw bad(`":${m[1]}${m[2] !== undefined ? `(${m[2]})` : ''}" is not a threshold option: write ':abort' (stop the run when it fails) or ':abort(30s)' (judged from 30 s into the measured window)`);
  const condition = expr.slice(0, m.index);
  if (m[2] === undefined) return { condition, abort: { delaySec: 0 } };
  const d = /^(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m)?$/i.exec(m[2]);
  if (!d) throw bad(`":abort(${m[2]})": the delay must be a duration such as 30s, 500ms or 2m`);
  return { condition, abort: { delaySec: Number(d[1]) * DELAY_UNITS[(d[2] ?? 's').toLowerCase()]! } };
}

const TIME_UNITS: Record<string, number> = { ms: 1, s: 1000, us: 0.001, 'µs': 0.001 };
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/;

/** Parse one condition for a workload; errors name `field` and say what to write instead. */
export function parseThreshold(expr: string, def: WorkloadDef, field = 'thresholds[0]'): ParsedThreshold {
  const bad = (why: string) => new SledgeError('SLEDGE_E_VALIDATION', `${field} ${JSON.stringify(expr)}: ${why}`, { field });
  if (typeof expr !== 'string' || !expr.trim()) throw bad("is empty: write '<metric> <op> <value>[unit]', e.g. 'nopm>1000'");
  const { condition, abort } = abortSuffix(expr, bad);
  const opMatch = /(<=|>=|==|!=|=<|=>|<|>|=)/.exec(condition);
  if (!opMatch) throw bad("has no comparison: write '<metric> <op> <value>[unit]' with op one of < <= > >= ==, e.g. 'nopm>1000' or 'p95(neword)<50ms'");
  const rawOp = opMatch[1]!;
  if (!(THRESHOLD_OPS as readonly string[]).includes(rawOp)) {
    const hint = rawOp === '=' ? '==' : rawOp === '=<' ? '<=' : rawOp === '=>' ? '>=' : '< <= > >= ==';
    throw bad(`operator "${rawOp}" is not one of < <= > >= ==: use ${hint}`);
  }
  const cmp = rawOp as ThresholdOp;
  const left = condition.slice(0, opMatch.index).trim();
  const right = condition.slice(opMatch.index + rawOp.length).trim();
  if (!left) throw bad(`names no metric before "${cmp}": e.g. 'nopm${cmp}1000'`);
  const metrics = workloadMetrics(def);
  let p: Omit<ParsedThreshold, 'cmp' | 'limit' | 'expr' | 'unit' | 'condition' | 'abort'> & { dim: MetricDim; unit: ParsedThreshold['unit'] };
  const call = /^([A-Za-z][A-Za-z0-9_]*)\s*\(\s*([^()]*?)\s*\)$/.exec(left);
  if (call && call[1]!.toLowerCase() === 'error_rate') {
    if (!def.opCounts) throw bad(`${def.display} results count errors per run, not per operation: write 'error_rate<1%'`);
    const ops = operationNames(def);
    const op = ops.get(call[2]!.toLowerCase());
    if (!op) throw bad(`"${call[2]}" is not a ${def.display} operation: use one of ${[...ops.keys()].join(', ')}`);
    p = { metric: `error_rate(${op})`, kind: 'error_rate', op, dim: 'percent', unit: '%' };
  } else if (call) {
    const fn = call[1]!.toLowerCase();
    if (!(LATENCY_FNS as readonly string[]).includes(fn)) throw bad(`"${call[1]}" is not a latency function: use one of ${LATENCY_FNS.join(', ')}, e.g. p95(${def.operations[0] ?? 'op'})`);
    const ops = operationNames(def);
    const op = ops.get(call[2]!.toLowerCase());
    if (!op) throw bad(`"${call[2]}" is not a ${def.display} operation: use one of ${[...ops.keys()].join(', ')}`);
    p = { metric: `${fn}(${op})`, kind: 'latency', fn: fn as LatencyFn, op, dim: 'time', unit: 'ms' };
  } else {
    const info = metrics.get(left.toLowerCase());
    if (!info) {
      const names = [...metrics.values()].map((m) => m.name);
      throw bad(`"${left}" is not a metric of ${def.display} results: use one of ${names.join(', ')}, or ${LATENCY_FNS.join('|')}(<operation>) for latency`);
    }
    p = info.name === 'error_rate' ? { metric: 'error_rate', kind: 'error_rate', dim: 'percent', unit: '%' } : { metric: info.name, kind: 'field', path: info.path, dim: info.dim, unit: info.unit };
  }
  const num = NUMBER.exec(right);
  if (!right || !num) throw bad(`"${right}" after "${cmp}" must be a number with an optional unit (ms, s, us, %), e.g. '${p.metric}${cmp}${p.dim === 'time' ? '50ms' : p.dim === 'percent' ? '1%' : '1000'}'`);
  const value = Number(num[0]);
  if (!Number.isFinite(value)) throw bad(`"${num[0]}" is not a finite number`);
  const unit = right.slice(num[0].length).trim();
  let limit = value;
  if (p.dim === 'time') {
    if (unit && TIME_UNITS[unit] === undefined) throw bad(`${p.metric} is a time: its unit must be ms, s or us (got "${unit}")`);
    if (unit) limit = (value * TIME_UNITS[unit]!) / TIME_UNITS[p.unit]!;
  } else if (p.dim === 'percent') {
    if (unit && unit !== '%') throw bad(`${p.metric} is a percentage: write a number with % (e.g. 1%), not "${unit}"`);
  } else if (unit) {
    throw bad(`${p.metric} is a count, not a time or a percentage: drop the unit "${unit}"`);
  }
  const { dim: _dim, ...rest } = p;
  return { expr, condition: condition.trim(), ...rest, cmp, limit, ...(abort ? { abort } : {}) };
}

/** Parse a job's `thresholds` list: every bad entry is reported at once (thresholds[i] each). */
export function parseThresholds(list: unknown, def: WorkloadDef, prefix = 'thresholds'): ParsedThreshold[] {
  const arr = validate(ThresholdsField, list, prefix);
  const p = new Problems();
  const out = arr.map((e, i) => p.check(() => parseThreshold(e, def, `${prefix}[${i}]`)));
  p.throwIfAny();
  return out as ParsedThreshold[];
}


/** Validate `baseline` (shape only; that the job or profile exists is checked where the store is). */
export function parseBaseline(value: unknown, prefix = 'baseline'): BaselineConfig {
  const b = validate(Baseline, value, prefix);
  if ((b.jobId === undefined) === (b.profileId === undefined)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${prefix} needs exactly one of jobId (a job to compare the headline with) or profileId (HammerDB jobs diff against a profile)`, { field: prefix });
  }
  const maxRegression = b.maxRegression ?? DEFAULT_MAX_REGRESSION;
  return b.jobId !== undefined ? { jobId: b.jobId.toUpperCase(), maxRegression } : { profileId: b.profileId!, maxRegression };
}

/** Is `actual op limit`? */
export function compare(actual: number, cmp: ThresholdOp, limit: number): boolean {
  switch (cmp) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '==':
      return actual === limit;
  }
}
