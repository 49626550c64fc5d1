/**
 * A job judged on its thresholds and baseline: the data it stored (result,
 * time profile) read through the store, each condition evaluated. Used when a
 * run ends (the engine stores the evaluation with the job) and by
 * POST /jobs/:id/thresholds (an evaluation of a stored job, nothing changed).
 */
import type { JobStore } from '@sledge/jobstore';
import { jobWorkloadDef, workloadDef, type BaselineConfig, type Job, type ThresholdEvaluation, type ThresholdResult } from '@sledge/protocol';
import { evaluateBaseline } from './baseline.js';
import { evaluateThresholds } from './thresholds.js';

export interface Judging {
  thresholds?: readonly string[];
  baseline?: BaselineConfig;
}

/** The judging a job was created with (its stored configuration). */
export function judgingOf(job: Job): Judging {
  const cfg = (job.config ?? {}) as { thresholds?: string[]; baseline?: BaselineConfig };
  return { ...(cfg.thresholds?.length ? { thresholds: cfg.thresholds } : {}), ...(cfg.baseline ? { baseline: cfg.baseline } : {}) };
}

export const hasJudging = (j: Judging): boolean => Boolean(j.thresholds?.length || j.baseline);

/**
 * Evaluate thresholds and baseline against a stored job. `running`: the
 * thresholds as judged during the run instead (a run a `:abort` condition
 * stopped: judged on its window up to then).
 */
export function judgeJob(store: JobStore, job: Job, j: Judging, running?: readonly ThresholdResult[] | null): ThresholdEvaluation {
  const known = workloadDef(job.workload);
  const def = known && jobWorkloadDef(known, (job.config as Record<string, unknown> | undefined)?.[known.optionsKey]);
  const results: ThresholdResult[] = [];
  if (running) results.push(...running);
  else if (def && j.thresholds?.length) {
    results.push(...evaluateThresholds(j.thresholds, { def, ...(job.result ? { result: job.result as Record<string, unknown> } : {}), timings: store.getTimings(job.id, { vu: 0 }) }));
  }
  if (j.baseline) results.push(evaluateBaseline(store, job, j.baseline));
  return { passed: results.every((r) => r.ok), thresholdResults: results };
}
