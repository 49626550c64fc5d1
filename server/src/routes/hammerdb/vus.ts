import type { JobStore } from '@sledge/jobstore';
import { isTerminal, type Job, type JobStatus, type VuStatus } from '@sledge/protocol';
import type { HdbSession, VuSet } from './state.js';

export type VuState = 'WAIT IDLE' | 'RUNNING' | 'FINISH SUCCESS' | 'FINISH FAILED';

/**
 * HammerDB's VU status for a Sledge job status. A run stopped on request
 * (vudestroy, the dashboard) finishes as its status stream says
 * ("Vuser 1:FINISHED SUCCESS"), with no result.
 */
export function vuStateOfJob(status: JobStatus): VuState {
  if (status === 'queued') return 'WAIT IDLE';
  if (status === 'completed' || status === 'stopped') return 'FINISH SUCCESS';
  if (isTerminal(status)) return 'FINISH FAILED';
  return 'RUNNING';
}

const VU_STATE: Record<VuStatus['state'], VuState> = { idle: 'WAIT IDLE', connecting: 'RUNNING', running: 'RUNNING', finished: 'FINISH SUCCESS', failed: 'FINISH FAILED' };

/**
 * Status per HammerDB VU number (1-based). The monitor (VU 1 when there is
 * one) follows the job; the others follow Sledge's per-VU states (Sledge
 * numbers a run's VUs from 2), falling back to the job's status.
 */
export function vuStates(vus: VuSet, job: Job | undefined, perVu: readonly VuStatus[]): VuState[] {
  const jobState = job ? vuStateOfJob(job.status) : 'WAIT IDLE';
  const byVu = new Map(perVu.map((v) => [v.vu, v]));
  return Array.from({ length: vus.count }, (_, i) => {
    const n = i + 1;
    if (!job || (vus.monitor && n === 1)) return jobState;
    const v = byVu.get(vus.monitor ? n : n + 1);
    if (!v) return jobState;
    const s = VU_STATE[v.state];
    // A job that has ended leaves no VU running.
    return isTerminal(job.status) && (s === 'RUNNING' || s === 'WAIT IDLE') ? jobState : s;
  });
}

/** Tcl's list string form: "1 {WAIT IDLE} 2 RUNNING". */
export function tclList(items: readonly string[]): string {
  return items.map((s) => (s === '' ? '{}' : /[\s{}"\\]/.test(s) ? `{${s}}` : s)).join(' ');
}

/** The job the session's VUs belong to, when it is still stored. */
export function vuJob(s: HdbSession, store: JobStore): Job | undefined {
  return s.vus?.jobId ? store.getJob(s.vus.jobId) : undefined;
}

/**
 * VUs that "exist" for HammerDB's refusals (vuset, vucreate, buildschema):
 * created by vucreate and not yet used, or busy in a job that has not ended.
 */
export function existingVus(s: HdbSession, store: JobStore): VuSet | null {
  const v = s.vus;
  if (!v) return null;
  if (!v.jobId) return v;
  const job = store.getJob(v.jobId);
  return job && !isTerminal(job.status) ? v : null;
}

/** print vustatus: "1 {WAIT IDLE} 2 RUNNING ..." or "No Virtual Users found". */
export function vuStatusText(s: HdbSession, store: JobStore): string {
  const v = s.vus;
  if (!v) return 'No Virtual Users found';
  const job = vuJob(s, store);
  if (v.jobId && !job) return 'No Virtual Users found';
  const states = vuStates(v, job, job && job.type === 'run' ? store.getVus(job.id) : []);
  return tclList(states.flatMap((st, i) => [String(i + 1), st]));
}

/** vucomplete: the last job the VUs ran has ended. */
export function vuComplete(s: HdbSession, store: JobStore): boolean {
  const job = vuJob(s, store);
  return job !== undefined && isTerminal(job.status);
}
