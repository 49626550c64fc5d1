import { readFileSync } from 'node:fs';
import { SledgeError, parseStepsText, type ArrivalResult, type StepResult } from '@sledge/protocol';

/**
 * Run-shape flags (issue 12): step loads and arrival-rate mode.
 *
 *   --steps 'START:DURATION:VUS,...'   minutes, HammerDB steprun's start after previous, duration, VUs
 *                                       e.g. '0:1:2,1:1:4,1:1:8'
 *   --steps '[{"startAfterMin":0,"durationMin":1,"vus":2}, ...]'   the REST form
 *   --steps @steps.json                 the REST form from a file
 *   --arrival-rate TX_PER_SEC [--arrival-ramp-to TX_PER_SEC] [--max-sessions N] [--arrival-grace MS]
 *
 * Values are checked on the server (one set of rules); only the syntax here.
 */
export const SHAPE_FLAGS = {
  steps: { type: 'string' },
  'arrival-rate': { type: 'string' },
  'arrival-ramp-to': { type: 'string' },
  'max-sessions': { type: 'string' },
  'arrival-grace': { type: 'string' },
} as const;

type ShapeFlags = Partial<Record<keyof typeof SHAPE_FLAGS, string | boolean | undefined>>;

/** Server field -> flag, for server errors. */
export const SHAPE_FIELD_FLAGS: Record<string, string> = {
  'tprocc.steps': '--steps',
  'tprocc.arrival': '--arrival-rate',
  'tprocc.arrival.rate': '--arrival-rate',
  'tprocc.arrival.rampTo': '--arrival-ramp-to',
  'tprocc.arrival.maxSessions': '--max-sessions',
  'tprocc.arrival.graceMs': '--arrival-grace',
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
  if (workload !== 'tprocc') throw bad(set[0]!, 'is a TPROC-C flag: add --workload tprocc or remove it');
  const out: Record<string, unknown> = {};
  if (f.steps !== undefined) out['steps'] = parseSteps(String(f.steps));
  const rate = number('arrival-rate', f['arrival-rate']);
  const rampTo = number('arrival-ramp-to', f['arrival-ramp-to']);
  const maxSessions = number('max-sessions', f['max-sessions']);
  const graceMs = number('arrival-grace', f['arrival-grace']);
  if (rate === undefined && (rampTo !== undefined || maxSessions !== undefined || graceMs !== undefined)) {
    throw bad(rampTo !== undefined ? 'arrival-ramp-to' : maxSessions !== undefined ? 'max-sessions' : 'arrival-grace', 'needs --arrival-rate (transactions per second)');
  }
  if (rate !== undefined) {
    out['arrival'] = { rate, ...(rampTo !== undefined ? { rampTo } : {}), ...(maxSessions !== undefined ? { maxSessions } : {}), ...(graceMs !== undefined ? { graceMs } : {}) };
  }
  return out;
}

/** Lines for a result's steps and arrival figures. */
export function shapeLines(r: { steps?: StepResult[]; arrival?: ArrivalResult }): string[] {
  const out: string[] = [];
  for (const s of r.steps ?? []) {
    const lat = s.latency['neworder'];
    out.push(`Step ${s.index}: ${s.vus} VU, ${s.startSec}-${s.endSec} s: ${s.nopm} NOPM, ${s.tpm} TPM${lat ? `, neworder p95 ${lat.p95} ms` : ''}`);
  }
  const a = r.arrival;
  if (a) {
    out.push(`Arrival rate: target ${a.targetRate}/s, achieved ${a.achievedRate}/s, sessions used ${a.sessionsUsed} of ${a.maxSessions}, dropped ${a.dropped} of ${a.scheduled} (latency from the intended start)`);
  }
  return out;
}
