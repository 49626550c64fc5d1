/**
 * What changed between two runs (GET /compare/changes, docs/compare.md): the
 * settings that differ, the statements whose mean time moved, the TPROC-H
 * plans whose shape changed, and a regression verdict read against the runs'
 * measured spread (repeats of the same VU count within each run's profile).
 */
import { changedPlans, diffSettings, diffStatements, regressionVerdict, spreadOf, type Spread } from '@sledge/core';
import type { JobStore } from '@sledge/jobstore';
import { CHANGE_METRICS, SledgeError, workloadDef, type EngineSettingsRecord, type Job, type JobChanges, type RegressionVerdict, type RunSpread, type StatementStatsRecord } from '@sledge/protocol';

/** A statement's mean time must move by more than this share to be listed. */
export const STATEMENT_MIN_CHANGE = 0.1;

function lastRecord<T>(store: JobStore, jobId: string, kind: string): T | undefined {
  const s = store.getMetrics(jobId, kind, { limit: 1, newest: true });
  return s[0]?.data as T | undefined;
}

function runJob(store: JobStore, id: string, field: string): Job {
  const job = store.getJob(id);
  if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found: give the ids of two run jobs`, { field });
  if (job.type !== 'run') throw new SledgeError('SLEDGE_E_VALIDATION', `job ${id} is a ${job.type} job: compare two run jobs`, { field });
  return job;
}

const headlineOf = (job: Job | undefined, field: string): number | null => {
  const v = Number((job?.result as Record<string, unknown> | undefined)?.[field]);
  return Number.isFinite(v) ? v : null;
};

/**
 * The spread of a job's headline over the completed runs of its profile at
 * the same active-VU count (itself included; the run it is compared with
 * left out, else two runs' own difference would pass as their noise).
 */
function spreadFor(store: JobStore, job: Job, field: string, other: string): (Spread & { how: string }) | undefined {
  if (!(job.profileId >= 1)) return undefined;
  const points = store.profileJobs(job.profileId);
  const own = points.find((p) => p.jobId === job.id);
  if (!own) return undefined;
  const same = points.filter((p) => p.activeVus === own.activeVus && p.jobId !== other);
  const values = same.map((p) => headlineOf(store.getJob(p.jobId), field)).filter((v): v is number => v !== null);
  const s = spreadOf(values);
  return s && { ...s, how: `${s.repeats} completed runs of profile ${job.profileId} at ${own.activeVus} active VUs` };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function verdictOf(store: JobStore, a: Job, b: Job): RegressionVerdict {
  const def = workloadDef(b.workload);
  const h = def?.headline ?? { field: 'nopm', unit: '', lowerIsBetter: false };
  const va = headlineOf(a, h.field);
  const vb = headlineOf(b, h.field);
  const sa = spreadFor(store, a, h.field, b.id);
  const sb = spreadFor(store, b, h.field, a.id);
  const spread: RunSpread[] = [
    ...(sa ? [{ jobId: a.id, cv: sa.cv, repeats: sa.repeats, how: sa.how }] : []),
    ...(sb ? [{ jobId: b.id, cv: sb.cv, repeats: sb.repeats, how: sb.how }] : []),
  ];
  const f = regressionVerdict({ a: va, b: vb, lowerIsBetter: h.lowerIsBetter === true, spreadA: sa, spreadB: sb });
  let message: string;
  if (va === null || vb === null) message = `no verdict: ${va === null ? `job ${a.id}` : `job ${b.id}`} has no ${h.field} result`;
  else if (f.change === null) message = `no verdict: job ${a.id} has ${h.field} ${va}`;
  else if (f.noise === null)
    message = `${h.field} moved ${f.change >= 0 ? '+' : ''}${pct(f.change)}; neither run has a measured spread to read it against (repeat a run at the same VU count in its profile: two or more completed runs)`;
  else {
    const what = f.verdict === 'within-noise' ? 'within the noise' : f.verdict;
    message = `${h.field} moved ${f.change >= 0 ? '+' : ''}${pct(f.change)} against a run-to-run noise of ±${pct(f.noise)} (2 × √(cvA² + cvB²) from ${spread.map((s) => `cv ${pct(s.cv)} over ${s.how}`).join('; ')}): ${what}`;
  }
  return { metric: h.field, a: va, b: vb, change: f.change, noise: f.noise, verdict: f.verdict, spread, message };
}

/** Everything that changed from run A to run B. */
export function runChanges(store: JobStore, aId: string, bId: string): JobChanges {
  const a = runJob(store, aId, 'jobs');
  const b = runJob(store, bId, 'jobs');
  const setA = lastRecord<EngineSettingsRecord>(store, a.id, CHANGE_METRICS.settings);
  const setB = lastRecord<EngineSettingsRecord>(store, b.id, CHANGE_METRICS.settings);
  const noSettings = (j: Job, r: EngineSettingsRecord | undefined) => (!r ? `job ${j.id} recorded no settings (a run from before settings were recorded)` : r.unavailable ? `job ${j.id}: ${r.unavailable}` : undefined);
  const whySettings = noSettings(a, setA) ?? noSettings(b, setB);
  const settings = whySettings ? { differ: [], compared: 0, unavailable: whySettings } : diffSettings(setA!.settings, setB!.settings);

  const stA = lastRecord<StatementStatsRecord>(store, a.id, CHANGE_METRICS.statements);
  const stB = lastRecord<StatementStatsRecord>(store, b.id, CHANGE_METRICS.statements);
  const noStats = (j: Job, r: StatementStatsRecord | undefined) => (!r ? `job ${j.id} recorded no statement statistics` : r.unavailable ? `job ${j.id}: ${r.unavailable}` : undefined);
  const whyStats = noStats(a, stA) ?? noStats(b, stB);
  const statements = whyStats ? { moved: [], unavailable: whyStats } : { moved: diffStatements(stA!.statements, stB!.statements, STATEMENT_MIN_CHANGE) };

  const plans = (j: Job) => store.getMetrics(j.id, 'tproch-plan', {}).map((s) => s.data as { query: number; plan: string }).filter((d) => d && typeof d.query === 'number' && typeof d.plan === 'string');
  return { a: a.id, b: b.id, settings, statements, plans: changedPlans(plans(a), plans(b)), verdict: verdictOf(store, a, b) };
}
