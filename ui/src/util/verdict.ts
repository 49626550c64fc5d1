import type { Job, ThresholdResult } from '@sledge/protocol';

/**
 * A job's pass/fail verdict as pages show it beside its status: a run that
 * completed but failed a threshold (or its baseline) is not a green
 * "completed"; a run a `:abort` threshold stopped says so.
 */
export type Verdict =
  | { kind: 'passed' }
  | { kind: 'failed'; failed: ThresholdResult[] }
  | { kind: 'aborted'; failed: ThresholdResult[]; message: string; atSec: number | undefined };

/** The error code of a run a `:abort` threshold stopped (protocol's error table). */
export const THRESHOLD_ABORT = 'SLEDGE_E_THRESHOLD_ABORT';

/** The job's verdict, undefined when it has none (no thresholds or baseline, or not judged yet). */
export function verdictOf(job: Pick<Job, 'passed' | 'thresholdResults' | 'error'>): Verdict | undefined {
  const failed = (job.thresholdResults ?? []).filter((r) => !r.ok);
  if (job.error?.code === THRESHOLD_ABORT) {
    const at = failed.find((r) => r.abortedAt !== undefined);
    // The aborting condition first.
    const ordered = at ? [at, ...failed.filter((r) => r !== at)] : failed;
    return { kind: 'aborted', failed: ordered, message: job.error.message, atSec: at?.abortedAt };
  }
  if (job.passed === undefined) return undefined;
  return job.passed ? { kind: 'passed' } : { kind: 'failed', failed };
}

/** The status text beside a job: "failed thresholds" for a completed run that failed them, "aborted (threshold)" for one stopped by one. */
export function verdictStatus(status: Job['status'], v: Verdict | undefined): { text: string; className: string } | undefined {
  if (v?.kind === 'aborted') return { text: 'aborted: threshold', className: 'status-aborted' };
  if (v?.kind === 'failed' && status === 'completed') return { text: 'failed thresholds', className: 'status-thresholds-failed' };
  return undefined;
}
