import type { EngineSample, Job, RunInfo, VuStatus } from '@sledge/protocol';
import { isTerminal } from '@sledge/protocol';
import type { Phase } from '../metrics/samples.js';
import type { RunPlan } from '../workloads/types.js';
import { workloadOf } from '../workloads/registry.js';

export type { RunPlan } from '../workloads/types.js';

/** The run's plan from its stored options, as its workload reads them. */
export const runPlan = (job: Job): RunPlan => workloadOf(job).runPlan(job);

export type RunStage = 'waiting' | 'rampup' | 'measuring' | 'ending' | 'running' | 'ended';

/** Where a run stands: elapsed and remaining time, and the shares of the progress bar. */
export interface RunProgress {
  stage: RunStage;
  /** Since the job started (0 before). */
  elapsedMs: number;
  /** Until the planned end of the measured window (timed runs only). */
  remainingMs?: number;
  /** Share of the bar that is rampup (timed runs; 0 without rampup). */
  rampupShare: number;
  /** Share of the bar done, 0..1 (timed: of rampup + duration; test driver: of the transactions). */
  done: number;
  /** Elapsed and length of the current phase (timed). */
  phaseMs?: { elapsed: number; total: number };
}

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/**
 * A run's progress at `now` from its status, its configuration and the phase
 * marks the server records (rampup and measuring start). Before a mark arrives
 * the phase is placed from the job's start.
 */
export function runProgress(job: Job, phases: readonly Phase[], vus: readonly VuStatus[], now: number): RunProgress {
  const plan = runPlan(job);
  const started = job.startedAt ? Date.parse(job.startedAt) : undefined;
  const end = job.endedAt ? Date.parse(job.endedAt) : now;
  const elapsedMs = started === undefined ? 0 : Math.max(0, end - started);
  const ended = isTerminal(job.status);
  if (!plan.timed) {
    const total = plan.vus * plan.totalIterations;
    const tx = vus.reduce((a, v) => a + v.commits + v.rollbacks, 0);
    return { stage: ended ? 'ended' : started === undefined ? 'waiting' : 'running', elapsedMs, rampupShare: 0, done: ended ? 1 : total > 0 ? clamp01(tx / total) : 0 };
  }
  const window = plan.rampupSec + plan.durationSec;
  const rampupShare = window > 0 ? plan.rampupSec / window : 0;
  const last = (label: string) => [...phases].reverse().find((p) => p.label === label)?.ts;
  const measuringAt = last('measuring');
  const rampupAt = last('rampup') ?? (measuringAt !== undefined ? measuringAt - plan.rampupSec * 1000 : undefined);
  if (rampupAt === undefined || job.status === 'queued' || job.status === 'connecting') {
    return { stage: ended ? 'ended' : 'waiting', elapsedMs, remainingMs: window * 1000, rampupShare, done: 0 };
  }
  // Phase marks carry the server's clock: never before them, so a mark that lands before the page's next tick counts 0 s.
  const at = Math.max(Math.min(end, now), measuringAt ?? rampupAt);
  const plannedEnd = measuringAt !== undefined ? measuringAt + plan.durationSec * 1000 : rampupAt + window * 1000;
  // The bar runs over the planned window: rampup as planned, then the measured part from when it began.
  const doneSec = measuringAt !== undefined ? plan.rampupSec + (at - measuringAt) / 1000 : (at - rampupAt) / 1000;
  const done = window > 0 ? clamp01(doneSec / window) : 1;
  const remainingMs = Math.max(0, plannedEnd - at);
  let stage: RunStage;
  let phaseMs: RunProgress['phaseMs'];
  if (ended) stage = 'ended';
  else if (job.status === 'stopping' || remainingMs === 0) stage = 'ending';
  else if (measuringAt !== undefined || job.status === 'measuring') stage = 'measuring';
  else stage = 'rampup';
  if (stage === 'measuring' && measuringAt !== undefined) phaseMs = { elapsed: Math.min(plan.durationSec * 1000, at - measuringAt), total: plan.durationSec * 1000 };
  if (stage === 'rampup') phaseMs = { elapsed: Math.min(plan.rampupSec * 1000, at - rampupAt), total: plan.rampupSec * 1000 };
  return { stage, elapsedMs, remainingMs, rampupShare, done: ended && job.status === 'completed' ? 1 : done, ...(phaseMs ? { phaseMs } : {}) };
}

/** The run's `run` metric (schema warehouses, VUs, worker threads), when recorded. */
export function runInfo(metrics: Record<string, unknown[]>): RunInfo | undefined {
  const list = metrics['run'] as { data: RunInfo }[] | undefined;
  return list?.[list.length - 1]?.data;
}

/**
 * Engine counter samples as charts should draw them. The counter's first
 * sample is a baseline (always 0: there is no previous count to subtract), so
 * it is left out; once the job has ended, samples of 0 after the last
 * non-zero one were taken after the virtual users had stopped, not a drop in
 * throughput, and are left out too.
 */
export function chartableEngine<T extends Pick<EngineSample, 'tpm' | 'nopm'>>(samples: readonly T[], ended: boolean): readonly T[] {
  let from = 0;
  if (samples.length && samples[0]!.tpm === 0 && samples[0]!.nopm === 0) from = 1;
  let to = samples.length;
  if (ended) while (to > from && samples[to - 1]!.tpm === 0 && samples[to - 1]!.nopm === 0) to--;
  return from === 0 && to === samples.length ? samples : samples.slice(from, to);
}

/** Client samples without the all-zero tail a finished run can leave after its VUs stopped. */
export function chartableClient<T extends { commits: number; rollbacks: number }>(samples: readonly T[], ended: boolean): readonly T[] {
  if (!ended) return samples;
  let to = samples.length;
  while (to > 0 && samples[to - 1]!.commits === 0 && samples[to - 1]!.rollbacks === 0) to--;
  return to === samples.length ? samples : samples.slice(0, to);
}
