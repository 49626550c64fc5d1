/**
 * Baseline regression checks (issue 12, HammerDB v6 CI): a job's headline
 * against another job's, or HammerDB's `jobs diff` against a profile
 * (hammerdb.md §11.1: only active-VU counts present in both profiles,
 * ratio = (mean_comp - mean_base) / mean_base over NOPM). A regression beyond
 * maxRegression (default 0.025) fails.
 */
import type { JobStore, ProfilePoint } from '@sledge/jobstore';
import { jobsDiff } from './jobs-diff.js';
import { SledgeError, workloadDef, workloadMetrics, type BaselineConfig, type Job, type ThresholdResult, type WorkloadDef } from '@sledge/protocol';

const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;
const num = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) >= 100 ? 1 : 5));

/** The metric profiles are compared on (HammerDB's jobs diff: NOPM). */
const PROFILE_METRIC = 'nopm';

/**
 * Check at job creation that the baseline can be compared with a job of this
 * workload: the job exists, is of the same workload and has a result; the
 * profile has completed runs and is not the job's own.
 */
export function assertBaseline(store: JobStore, b: BaselineConfig, workload: string, profileId: number, field = 'baseline'): void {
  const def = workloadDef(workload);
  if (b.jobId !== undefined) {
    const base = store.getJob(b.jobId);
    if (!base) throw new SledgeError('SLEDGE_E_VALIDATION', `${field}.jobId: job ${b.jobId} not found: give the id of a finished run to compare with`, { field: `${field}.jobId` });
    if (base.workload !== workload) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `${field}.jobId: job ${b.jobId} is a ${base.workload} job, this one is ${workload}: compare with a job of the same workload`, { field: `${field}.jobId` });
    }
    if (!base.result) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `${field}.jobId: job ${b.jobId} (${base.type}, ${base.status}) has no result to compare with: give a run that completed`, { field: `${field}.jobId` });
    }
    return;
  }
  if (!def || !workloadMetrics(def).has(PROFILE_METRIC)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field}.profileId: profiles are compared on NOPM (HammerDB jobs diff), which ${def?.display ?? workload} results do not have: use ${field}.jobId`, { field: `${field}.profileId` });
  }
  if (b.profileId === profileId) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field}.profileId: ${profileId} is this job's own profile: compare with another profile`, { field: `${field}.profileId` });
  }
  if (!store.profileJobs(b.profileId!).length) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field}.profileId: profile ${b.profileId} has no completed runs to compare with`, { field: `${field}.profileId` });
  }
}

function unavailable(expr: string, metric: string, limit: number, why: string): ThresholdResult {
  return { expr, metric, actual: null, limit, unit: '%', ok: false, message: `${metric}: metric not available for this job: ${why}` };
}

/** The job's headline against another job's. */
function againstJob(store: JobStore, job: Job, def: WorkloadDef, b: BaselineConfig & { jobId: string }): ThresholdResult {
  const h = def.headline;
  const metric = `regression(${h.field})`;
  const limit = b.maxRegression * 100;
  const expr = `${h.field} vs job ${b.jobId}: regression <= ${pct(b.maxRegression)}`;
  const base = store.getJob(b.jobId);
  const bv = Number((base?.result as Record<string, unknown> | undefined)?.[h.field]);
  const cv = Number((job.result as Record<string, unknown> | undefined)?.[h.field]);
  if (!base) return unavailable(expr, metric, limit, `baseline job ${b.jobId} no longer exists`);
  if (!base.result || !Number.isFinite(bv)) return unavailable(expr, metric, limit, `baseline job ${b.jobId} has no ${h.field}`);
  if (!job.result || !Number.isFinite(cv)) return unavailable(expr, metric, limit, `the job has no ${h.field}`);
  if (bv === 0) return unavailable(expr, metric, limit, `baseline job ${b.jobId} has ${h.field} 0: no ratio`);
  const regression = h.lowerIsBetter ? (cv - bv) / bv : (bv - cv) / bv;
  const ok = regression <= b.maxRegression;
  const change = regression > 0 ? `${pct(regression)} worse` : `${pct(-regression)} better`;
  return {
    expr,
    metric,
    actual: regression * 100,
    limit,
    unit: '%',
    ok,
    message: `${h.field} ${num(cv)} vs ${num(bv)} in job ${b.jobId}: ${change}${ok ? `: pass` : `, more than ${pct(b.maxRegression)}: fail`}`,
  };
}

export { jobsDiff, signedRatio, type JobsDiff } from './jobs-diff.js';

/** HammerDB jobs diff (unweighted): this job's profile (or this job alone) against the baseline profile, over the active-VU counts both ran. */
function againstProfile(store: JobStore, job: Job, b: BaselineConfig & { profileId: number }): ThresholdResult {
  const metric = `regression(${PROFILE_METRIC})`;
  const limit = b.maxRegression * 100;
  const expr = `${PROFILE_METRIC} vs profile ${b.profileId} (jobs diff): regression <= ${pct(b.maxRegression)}`;
  const r = job.result as Record<string, unknown> | undefined;
  if (!r || typeof r['nopm'] !== 'number' || typeof r['activeVus'] !== 'number') return unavailable(expr, metric, limit, 'the job has no NOPM and active VUs');
  const own: ProfilePoint = { jobId: job.id, engine: job.engine, createdAt: job.createdAt, activeVus: r['activeVus'], nopm: r['nopm'], tpm: Number(r['tpm']) || 0 };
  // The job's own profile so far (this job is not 'completed' yet when judged at its end), or this job alone.
  const comp = job.profileId > 0 ? [...store.profileJobs(job.profileId).filter((p) => p.jobId !== job.id), own] : [own];
  const d = jobsDiff(store.profileJobs(b.profileId), comp, `profile ${b.profileId}`);
  if ('missing' in d) return unavailable(expr, metric, limit, d.missing);
  const ok = -d.ratio <= b.maxRegression;
  return {
    expr,
    metric,
    actual: -d.ratio * 100,
    limit,
    unit: '%',
    ok,
    message: `${d.line}, diff ${d.diff} (${pct(Math.abs(d.ratio))} ${d.ratio < 0 ? 'worse' : 'better'})${ok ? ': pass' : `, more than ${pct(b.maxRegression)} worse: fail`}`,
  };
}

/** The baseline check of a job (a failed one included: it then has no headline, which fails). */
export function evaluateBaseline(store: JobStore, job: Job, b: BaselineConfig): ThresholdResult {
  const def = workloadDef(job.workload);
  if (!def) return unavailable('baseline', 'regression', b.maxRegression * 100, `workload ${job.workload} is not registered`);
  return b.jobId !== undefined ? againstJob(store, job, def, b as BaselineConfig & { jobId: string }) : againstProfile(store, job, b as BaselineConfig & { profileId: number });
}
