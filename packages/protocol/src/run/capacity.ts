import Type from 'typebox';
import { SledgeError } from '../errors.js';
import { parseThreshold, type ParsedThreshold } from '../thresholds.js';
import type { WorkloadDef } from '../workloads/types.js';

/**
 * Capacity at an SLO: on top of an arrival-rate run (`arrival`, open model),
 * search the highest arrival rate at which every condition of `slo` holds.
 * The rate doubles from `arrival.rate` until a probe fails, is bisected
 * between the last pass and the first failure to within `tolerance`, and is
 * then held for `holdSeconds` (the run's measured window) to prove it stable.
 */
export const CapacityOptions = Type.Object(
  {
    slo: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: "conditions every probe must meet, comma-separated, in the thresholds grammar without ':abort', e.g. 'p95(neword)<20ms, error_rate<0.1%'",
    }),
    maxRate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000000, description: 'the search never probes above this rate (transactions/s)' })),
    stepSeconds: Type.Number({ minimum: 1, maximum: 3600, default: 30, description: 'seconds each probe runs at its rate' }),
    holdSeconds: Type.Number({ minimum: 1, maximum: 86400, default: 60, description: 'seconds the found rate is held (the measured window)' }),
    tolerance: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.05, description: 'bisection stops when the first failing rate is within this fraction above the last passing one' }),
    maxDropped: Type.Number({ minimum: 0, maximum: 1, default: 0.01, description: 'a probe also fails when more than this fraction of its arrivals were dropped (every session busy): the rate was not sustained' }),
  },
  { additionalProperties: false, title: 'Capacity at an SLO', 'x-group': 'driver' },
);
export type CapacityOptions = Type.Static<typeof CapacityOptions>;

/** One condition's outcome in a probe: its value (null when there was nothing to read) and whether it held. */
export const CapacityCheck = Type.Object({
  expr: Type.String(),
  actual: Type.Union([Type.Number(), Type.Null()]),
  ok: Type.Boolean(),
  message: Type.String(),
});
export type CapacityCheck = Type.Static<typeof CapacityCheck>;

/** Per-transaction latency percentiles (ms). */
export const CapacityLatency = Type.Record(Type.String(), Type.Object({ p50: Type.Number(), p95: Type.Number(), p99: Type.Number(), calls: Type.Integer() }));

/** One probe of the search (or the hold): its rate, figures and verdict. */
export const CapacityProbe = Type.Object({
  index: Type.Integer({ description: '1-based, in the order run' }),
  phase: Type.Union([Type.Literal('bracket'), Type.Literal('bisect'), Type.Literal('hold')]),
  rate: Type.Number({ description: 'target arrivals per second' }),
  startSec: Type.Number({ description: 'seconds after the VUs were released' }),
  seconds: Type.Number(),
  achievedRate: Type.Number(),
  scheduled: Type.Integer(),
  dropped: Type.Integer(),
  passed: Type.Boolean(),
  checks: Type.Array(CapacityCheck),
  latency: CapacityLatency,
});
export type CapacityProbe = Type.Static<typeof CapacityProbe>;

export const CapacityResult = Type.Object({
  slo: Type.String(),
  rate: Type.Union([Type.Number(), Type.Null()], { description: 'the highest rate that met the SLO (null: not even the lowest probed rate did)' }),
  held: Type.Boolean({ description: 'the hold at `rate` met the SLO too' }),
  probes: Type.Array(CapacityProbe),
  latency: CapacityLatency,
  reason: Type.String({ description: 'how the search ended, in words' }),
});
export type CapacityResult = Type.Static<typeof CapacityResult>;

/** One condition of an SLO text and where it starts (0-based character offset). */
export interface SloCondition {
  text: string;
  at: number;
}

/** Split an SLO text at its top-level commas (not inside parentheses). */
export function splitSlo(slo: string): SloCondition[] {
  const out: SloCondition[] = [];
  let depth = 0;
  let from = 0;
  const push = (end: number) => {
    const raw = slo.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), at: from + lead });
  };
  for (let i = 0; i < slo.length; i++) {
    const c = slo[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      push(i);
      from = i + 1;
    }
  }
  push(slo.length);
  return out;
}

/**
 * Parse an SLO: each comma-separated condition with the thresholds parser. A
 * bad one is a validation error on `field` naming the condition and its
 * character position (1-based), so nothing is queued.
 */
export function parseSlo(slo: unknown, def: WorkloadDef, field: string): ParsedThreshold[] {
  if (typeof slo !== 'string' || !slo.trim()) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} is empty: give one or more conditions separated by commas, e.g. 'p95(neword)<20ms, error_rate<0.1%'`, { field });
  }
  return splitSlo(slo).map((c, i) => {
    const where = `${field} condition ${i + 1} at character ${c.at + 1}`;
    if (!c.text) throw new SledgeError('SLEDGE_E_VALIDATION', `${where} is empty: remove the extra comma`, { field });
    let t: ParsedThreshold;
    try {
      t = parseThreshold(c.text, def, where);
    } catch (e) {
      throw SledgeError.is(e) ? new SledgeError('SLEDGE_E_VALIDATION', e.message, { field }) : e;
    }
    if (t.abort) throw new SledgeError('SLEDGE_E_VALIDATION', `${where} ${JSON.stringify(c.text)}: ':abort' does not apply to an SLO (every probe is judged at its end): remove it`, { field });
    return t;
  });
}

/** Checks across fields: a capacity search steers an arrival-rate run's rate. */
export function checkCapacity(o: { arrival?: { rate: number; rampTo?: number | undefined }; capacity?: CapacityOptions }, prefix = 'tprocc'): void {
  const c = o.capacity;
  if (!c) return;
  const f = `${prefix}.capacity`;
  if (!o.arrival) throw new SledgeError('SLEDGE_E_VALIDATION', `${f} searches an arrival rate: set ${prefix}.arrival ({ rate: <start rate>, maxSessions }) as well`, { field: f });
  if (o.arrival.rampTo !== undefined) throw new SledgeError('SLEDGE_E_VALIDATION', `${f} decides the rate itself: remove ${prefix}.arrival.rampTo`, { field: `${prefix}.arrival.rampTo` });
  if (c.maxRate !== undefined && c.maxRate < o.arrival.rate) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${f}.maxRate (${c.maxRate}) is below the start rate ${prefix}.arrival.rate (${o.arrival.rate}): raise it or lower the start rate`, { field: `${f}.maxRate` });
  }
}
