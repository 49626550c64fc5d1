import { CHART_COLORS, isScriptResult, type Job, type LatencySample, type ScriptResult } from '@sledge/protocol';
import type { RunPlan, WorkloadOp } from '../types.js';

/**
 * A script job's stored options and result as the pages read them. Pure.
 * The job holds every script it ran (a built-in's text filled in by the
 * server), so its page shows exactly what ran.
 */

/** One script as the job stores it. */
export interface StoredScript {
  name: string;
  text: string;
  weight: number;
  builtin?: string | undefined;
}

/** The job's `script` options as stored (unknown in the protocol type). */
export function jobScript(job: Pick<Job, 'config'>): Record<string, unknown> {
  const c = job.config as { script?: Record<string, unknown> } | null;
  return c && typeof c === 'object' && c.script && typeof c.script === 'object' ? c.script : {};
}

/** The job's scripts in order (name, text, weight); none when it stores none. */
export function jobScripts(job: Pick<Job, 'config'>): StoredScript[] {
  const list = jobScript(job)['scripts'];
  if (!Array.isArray(list)) return [];
  return list
    .filter((s): s is Record<string, unknown> => !!s && typeof s === 'object')
    .map((s, i) => ({
      name: typeof s['name'] === 'string' ? s['name'] : typeof s['builtin'] === 'string' ? s['builtin'] : `script${i + 1}`,
      text: typeof s['text'] === 'string' ? s['text'] : '',
      weight: typeof s['weight'] === 'number' ? s['weight'] : 1,
      builtin: typeof s['builtin'] === 'string' ? s['builtin'] : undefined,
    }));
}

/** The run's result, undefined before there is one. */
export function scriptResult(job: Pick<Job, 'result'>): ScriptResult | undefined {
  return isScriptResult(job.result) ? job.result : undefined;
}

/** The job's operations: one per script, named after it, in the chart palette's order. */
export function scriptOps(job: Pick<Job, 'config'>): WorkloadOp[] {
  const { light, dark } = CHART_COLORS;
  return jobScripts(job).map((s, i) => ({ id: s.name, label: s.name, color: { light: light.series[i % light.series.length]!, dark: dark.series[i % dark.series.length]! } }));
}

/** Executions of each script the latency samples counted (live and stored runs alike), by script name. */
export function countsOf(latency: readonly LatencySample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of latency) for (const [op, v] of Object.entries(s.perType)) out[op] = (out[op] ?? 0) + v.count;
  return out;
}

const num = (t: Record<string, unknown>, k: string): number | undefined => (typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : undefined);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The job's configuration in a few words: scripts with weights, VUs, rampup and measured minutes; a build's scale. */
export function configSummary(job: Job): string[] {
  const t = jobScript(job);
  const parts: string[] = [];
  if (job.type === 'run') {
    const scripts = jobScripts(job);
    if (scripts.length) parts.push(scripts.map((s) => `${s.name}@${s.weight}`).join(' '));
    const vus = num(t, 'vus');
    if (vus !== undefined) parts.push(plural(vus, 'VU'));
    parts.push(`rampup ${+(num(t, 'rampup') ?? 0).toFixed(2)} min`, `${+(num(t, 'duration') ?? 0).toFixed(2)} min measured`);
  } else if (job.type === 'build') {
    const scale = num(t, 'scale');
    if (scale !== undefined) parts.push(`scale ${Math.max(1, scale)}`);
  }
  return parts;
}

export function jobVus(job: Job): number | undefined {
  return job.type === 'run' ? num(jobScript(job), 'vus') : undefined;
}

/** pgbench's scale: a run's as it settled it (:scale), a build's as configured. */
export function jobScale(job: Job): number | undefined {
  const r = scriptResult(job);
  if (r) return r.scale;
  const s = num(jobScript(job), 'scale');
  return s === undefined ? undefined : job.type === 'build' ? Math.max(1, s) : s || undefined;
}

export function runPlan(job: Job): RunPlan {
  const t = jobScript(job);
  const rampup = num(t, 'rampup') ?? 0;
  const duration = num(t, 'duration') ?? 0;
  const plan: RunPlan = { timed: true, vus: num(t, 'vus') ?? 1, rampupSec: rampup * 60, durationSec: duration * 60, totalIterations: 0 };
  if (job.type === 'run') plan.windowMs = (rampup + duration) * 60_000;
  return plan;
}

export function planCell(job: Job): string {
  const t = jobScript(job);
  return `${String(t['rampup'] ?? '?')} + ${String(t['duration'] ?? '?')}`;
}

export function plannedText(job: Job): { text: string; title: string } | undefined {
  const t = jobScript(job);
  const r = num(t, 'rampup');
  const d = num(t, 'duration');
  if (job.type !== 'run' || r === undefined || d === undefined) return undefined;
  return { text: `${+r.toFixed(2)} + ${+d.toFixed(2)} min`, title: `rampup ${r} min + ${d} min measured` };
}
