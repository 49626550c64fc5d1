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
export const SHAPE_FIELD_FLAGS: Record<string, string> = Object.fromEntries(
  ['tprocc', 'script'].flatMap((w) => [
    [`${w}.steps`, '--steps'],
    [`${w}.arrival`, '--arrival-rate'],
    [`${w}.arrival.rate`, '--arrival-rate'],
    [`${w}.arrival.rampTo`, '--arrival-ramp-to'],
    [`${w}.arrival.maxSessions`, '--max-sessions'],
    [`${w}.arrival.graceMs`, '--arrival-grace'],
  ]),
);

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
  return out;
}
