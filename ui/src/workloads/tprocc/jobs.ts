import type { Job } from '@sledge/protocol';
import type { RunPlan } from '../types.js';
import { tproccResult } from './result.js';

/** The job's configured TPROC-C options as stored (unknown in the protocol type). */
export function jobTprocc(job: Job): Record<string, unknown> {
  const c = job.config as { tprocc?: Record<string, unknown> } | null;
  return c && typeof c === 'object' && c.tprocc && typeof c.tprocc === 'object' ? c.tprocc : {};
}

/** A run shape's VU slots (steps: the largest step; arrival: its sessions) and its words. */
function shapeVus(t: Record<string, unknown>): { vus: number; unit: string; text: string } | undefined {
  const steps = t['steps'];
  if (Array.isArray(steps) && steps.length) {
    const vus = Math.max(...steps.map((s) => Number((s as { vus?: number }).vus) || 0));
    return { vus, unit: 'VU slot', text: `${steps.length} steps of ${steps.map((s) => String((s as { vus?: number }).vus)).join('/')} VUs` };
  }
  const a = t['arrival'] as { rate?: number; rampTo?: number; maxSessions?: number } | undefined;
  if (a && typeof a === 'object' && typeof a.rate === 'number') {
    return { vus: a.maxSessions ?? 64, unit: 'session', text: `arrival ${a.rate}${a.rampTo !== undefined ? `→${a.rampTo}` : ''} tx/s` };
  }
  return undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const minutes = (m: unknown) => (typeof m === 'number' ? `${+m.toFixed(2)} min` : '?');

/**
 * The job's configuration in a few words, for one-line summaries and
 * confirmations: driver, VUs, warehouses (a run's come from the schema it ran
 * on: `warehouses` when known), rampup and duration; builds name their
 * warehouses and build VUs.
 */
export function configSummary(job: Job, warehouses?: number): string[] {
  const t = jobTprocc(job);
  const n = (k: string) => (typeof t[k] === 'number' ? (t[k] as number) : undefined);
  const parts: string[] = [];
  if (job.type === 'run') {
    const shape = shapeVus(t);
    const vus = shape?.vus ?? n('vus');
    if (vus !== undefined) parts.push(shape ? `${shape.text} (${plural(vus, shape.unit)})` : plural(vus, 'VU'));
    const w = warehouses ?? tproccResult(job)?.warehouses;
    if (w !== undefined) parts.push(plural(w, 'warehouse'));
    if (t['driver'] === 'test') parts.push(`test driver, ${plural(n('totalIterations') ?? 0, 'transaction')} per VU`);
    else parts.push(`rampup ${minutes(t['rampup'])}`, `${minutes(t['duration'])} measured`);
    if (t['allWarehouse'] === true) parts.push('all warehouses');
    if (t['keyAndThink'] === true) parts.push('keying and thinking time');
  } else if (job.type === 'build' || job.type === 'datagen') {
    const w = n('warehouses');
    if (w !== undefined) parts.push(plural(w, 'warehouse'));
    const b = n('buildVus');
    if (job.type === 'build' && b !== undefined) parts.push(plural(b, 'build VU'));
  }
  return parts;
}

/** The warehouses a job concerns: a run's from its result (the schema it ran on), a build's as configured; undefined when not known. */
export function jobWarehouses(job: Job): number | undefined {
  if (job.type === 'run') return tproccResult(job)?.warehouses;
  if (job.type === 'build' || job.type === 'datagen') {
    const w = jobTprocc(job)['warehouses'];
    return typeof w === 'number' ? w : undefined;
  }
  return undefined;
}

/** The VUs a job ran: a run's virtual users, a build's build VUs. */
export function jobVus(job: Job): number | undefined {
  const t = jobTprocc(job);
  const v = job.type === 'run' ? (shapeVus(t)?.vus ?? t['vus']) : job.type === 'build' ? t['buildVus'] : undefined;
  return typeof v === 'number' ? v : undefined;
}

/** A timed run's plan (rampup + measured minutes) for lists; undefined for the test driver and other jobs. */
export function plannedText(j: Job): { text: string; title: string } | undefined {
  const t = jobTprocc(j);
  if (j.type === 'run' && t['driver'] !== 'test' && typeof t['rampup'] === 'number' && typeof t['duration'] === 'number') {
    return { text: `${+t['rampup'].toFixed(2)} + ${+t['duration'].toFixed(2)} min`, title: `rampup ${t['rampup']} min + ${t['duration']} min measured` };
  }
  return undefined;
}

/** The run's plan from its stored TPROC-C options (driver, VUs, rampup, duration, test-driver transactions). */
export function runPlan(job: Job): RunPlan {
  const t = jobTprocc(job);
  const num = (k: string, d: number) => (typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : d);
  const plan: RunPlan = {
    timed: t['driver'] !== 'test',
    vus: shapeVus(t)?.vus ?? num('vus', 1),
    rampupSec: num('rampup', 0) * 60,
    durationSec: num('duration', 0) * 60,
    totalIterations: num('totalIterations', 0),
  };
  // Only a timed run has a planned end (build jobs carry the same options but no such window).
  if (job.type === 'run' && t['driver'] === 'timed' && typeof t['rampup'] === 'number' && typeof t['duration'] === 'number') plan.windowMs = (t['rampup'] + t['duration']) * 60_000;
  return plan;
}

/** Seconds between the engine counter's samples (tcRefreshSec; 10 when not stored). */
export const refreshSec = (job: Job): number => {
  const v = jobTprocc(job)['tcRefreshSec'];
  return typeof v === 'number' ? v : 10;
};

/** The compare table's plan cell: "test driver", or rampup + measured minutes as stored. */
export function planCell(job: Job): string {
  const t = jobTprocc(job);
  return t['driver'] === 'test' ? 'test driver' : `${String(t['rampup'] ?? '?')} + ${String(t['duration'] ?? '?')}`;
}
