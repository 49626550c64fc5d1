import { readFileSync } from 'node:fs';
import { SledgeError, parseSlo, workloadDef, parseStepsText, type ArrivalResult, type CapacityResult, type StepResult } from '@sledge/protocol';

/**
 * Run-shape flags (issue 12): step loads and arrival-rate mode.
 *
 *   --steps 'START:DURATION:VUS,...'   minutes, HammerDB steprun's start after previous, duration, VUs
 *                                       e.g. '0:1:2,1:1:4,1:1:8'
 *   --steps '[{"startAfterMin":0,"durationMin":1,"vus":2}, ...]'   the REST form
 *   --steps @steps.json                 the REST form from a file
 *   --arrival-rate TX_PER_SEC [--arrival-ramp-to TX_PER_SEC] [--max-sessions N] [--arrival-grace MS]
 *   --capacity 'SLO' [--capacity-start TX_PER_SEC] [--capacity-max TX_PER_SEC] [--capacity-step SEC]
 *                    [--capacity-hold SEC] [--capacity-tolerance PCT]   capacity at an SLO (an arrival-rate run)
 *
 * Values are checked on the server (one set of rules); only the syntax here.
 */
export const SHAPE_FLAGS = {
  steps: { type: 'string' },
  'arrival-rate': { type: 'string' },
  'arrival-ramp-to': { type: 'string' },
  'max-sessions': { type: 'string' },
  'arrival-grace': { type: 'string' },
  capacity: { type: 'string' },
  'capacity-start': { type: 'string' },
  'capacity-max': { type: 'string' },
  'capacity-step': { type: 'string' },
  'capacity-hold': { type: 'string' },
  'capacity-tolerance': { type: 'string' },
} as const;

type ShapeFlags = Partial<Record<keyof typeof SHAPE_FLAGS, string | boolean | undefined>>;

/** Server field -> flag, for server errors. */
export const SHAPE_FIELD_FLAGS: Record<string, string> = {
  ...Object.fromEntries(
    ['tprocc', 'script'].flatMap((w) => [
      [`${w}.steps`, '--steps'],
      [`${w}.arrival`, '--arrival-rate'],
      [`${w}.arrival.rate`, '--arrival-rate'],
      [`${w}.arrival.rampTo`, '--arrival-ramp-to'],
      [`${w}.arrival.maxSessions`, '--max-sessions'],
      [`${w}.arrival.graceMs`, '--arrival-grace'],
    ]),
  ),
  'tprocc.capacity': '--capacity',
  'tprocc.capacity.slo': '--capacity',
  'tprocc.capacity.maxRate': '--capacity-max',
  'tprocc.capacity.stepSeconds': '--capacity-step',
  'tprocc.capacity.holdSeconds': '--capacity-hold',
  'tprocc.capacity.tolerance': '--capacity-tolerance',
};

const bad = (flag: string, msg: string) => new SledgeError('SLEDGE_E_VALIDATION', `--${flag} ${msg}`, { field: `--${flag}` });

const number = (flag: string, v: string | boolean | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n)) throw bad(flag, `must be a number (got ${JSON.stringify(v)})`);
  return n;
};

/** --steps in any of its three forms -> tprocc.steps. */
export function parseSteps(raw: string): unknown {
  let text = raw.trim();
  if (text.startsWith('@')) {
    try {
      text = readFileSync(text.slice(1), 'utf8').trim();
    } catch (e) {
      throw bad('steps', `could not read ${text.slice(1)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      throw bad('steps', `is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return parseStepsText(text, '--steps');
}

/** The shape options the flags set (none: {}); refused for another workload. */
export function shapeOptions(f: ShapeFlags, workload: string): Record<string, unknown> {
  const set = (Object.keys(SHAPE_FLAGS) as (keyof typeof SHAPE_FLAGS)[]).filter((k) => f[k] !== undefined);
  if (!set.length) return {};
  if (workload !== 'tprocc' && workload !== 'script') throw bad(set[0]!, 'is a TPROC-C and script workload flag: add --workload tprocc (or script) or remove it');
  const out: Record<string, unknown> = {};
  if (f.steps !== undefined) out['steps'] = parseSteps(String(f.steps));
  const capacity = capacityOptions(f);
  const start = number('capacity-start', f['capacity-start']);
  if (start !== undefined && f['arrival-rate'] !== undefined) throw bad('capacity-start', 'and --arrival-rate both set the start rate: give one of them');
  const rate = number('arrival-rate', f['arrival-rate']) ?? start ?? (capacity ? DEFAULT_CAPACITY_START : undefined);
  const rampTo = number('arrival-ramp-to', f['arrival-ramp-to']);
  const maxSessions = number('max-sessions', f['max-sessions']);
  const graceMs = number('arrival-grace', f['arrival-grace']);
  if (rate === undefined && (rampTo !== undefined || maxSessions !== undefined || graceMs !== undefined)) {
    throw bad(rampTo !== undefined ? 'arrival-ramp-to' : maxSessions !== undefined ? 'max-sessions' : 'arrival-grace', 'needs --arrival-rate (transactions per second)');
  }
  if (rate !== undefined) {
    out['arrival'] = { rate, ...(rampTo !== undefined ? { rampTo } : {}), ...(maxSessions !== undefined ? { maxSessions } : {}), ...(graceMs !== undefined ? { graceMs } : {}) };
  }
  if (capacity) out['capacity'] = capacity;
  return out;
}

/** The start rate of a capacity search given neither --capacity-start nor --arrival-rate (transactions/s). */
export const DEFAULT_CAPACITY_START = 10;

/** --capacity and its companions -> tprocc.capacity (undefined without --capacity); the SLO is parsed here so a bad one names its position before anything is sent. */
function capacityOptions(f: ShapeFlags): Record<string, unknown> | undefined {
  const companions = (['capacity-start', 'capacity-max', 'capacity-step', 'capacity-hold', 'capacity-tolerance'] as const).filter((k) => f[k] !== undefined);
  if (f.capacity === undefined) {
    if (companions.length) throw bad(companions[0]!, "needs --capacity 'SLO' (e.g. 'p95(neword)<20ms')");
    return undefined;
  }
  const slo = String(f.capacity);
  parseSlo(slo, workloadDef('tprocc')!, '--capacity');
  const maxRate = number('capacity-max', f['capacity-max']);
  const stepSeconds = number('capacity-step', f['capacity-step']);
  const holdSeconds = number('capacity-hold', f['capacity-hold']);
  const tolerancePct = number('capacity-tolerance', f['capacity-tolerance']);
  return {
    slo,
    ...(maxRate !== undefined ? { maxRate } : {}),
    ...(stepSeconds !== undefined ? { stepSeconds } : {}),
    ...(holdSeconds !== undefined ? { holdSeconds } : {}),
    ...(tolerancePct !== undefined ? { tolerance: tolerancePct / 100 } : {}),
  };
}

/** Lines for a capacity search: each probe, then the verdict. */
export function capacityLines(c: CapacityResult): string[] {
  const out = c.probes.map((p) => {
    const lat = p.latency['neworder'];
    return `Probe ${p.index} ${p.phase.padEnd(7)} ${String(p.rate).padStart(8)}/s  achieved ${p.achievedRate}/s  dropped ${p.dropped}/${p.scheduled}${lat ? `  neworder p95 ${lat.p95} ms` : ''}  ${p.passed ? 'PASS' : 'FAIL'}${p.passed ? '' : ` (${p.checks.filter((x) => !x.ok).map((x) => x.message).join('; ')})`}`;
  });
  out.push(`Capacity at SLO ${c.slo}: ${c.rate === null ? 'none' : `${c.rate}/s`} ${c.held ? 'HELD' : 'NOT HELD'} (${c.reason})`);
  for (const [op, l] of Object.entries(c.latency)) out.push(`  ${op.padEnd(12)} p50 ${l.p50} ms  p95 ${l.p95} ms  p99 ${l.p99} ms  (${l.calls} calls in the hold)`);
  return out;
}

/** Lines for a result's steps and arrival figures. */
export function shapeLines(r: { steps?: StepResult[]; arrival?: ArrivalResult; capacity?: CapacityResult }): string[] {
  const out: string[] = [];
  for (const s of r.steps ?? []) {
    // TPROC-C's steps have engine NOPM/TPM and neworder; a script run's have its TPS and each script's latency.
    const op = s.latency['neworder'] ? 'neworder' : Object.keys(s.latency)[0];
    const lat = op ? s.latency[op] : undefined;
    const figure = s.nopm || s.tpm || s.tps === undefined ? `${s.nopm} NOPM, ${s.tpm} TPM` : `${s.tps} TPS`;
    out.push(`Step ${s.index}: ${s.vus} VU, ${s.startSec}-${s.endSec} s: ${figure}${lat ? `, ${op} p95 ${lat.p95} ms` : ''}`);
  }
  const a = r.arrival;
  if (a) {
    out.push(`Arrival rate: target ${a.targetRate}/s, achieved ${a.achievedRate}/s, sessions used ${a.sessionsUsed} of ${a.maxSessions}, dropped ${a.dropped} of ${a.scheduled} (latency from the intended start)`);
  }
  if (r.capacity) out.push(...capacityLines(r.capacity));
  return out;
}
