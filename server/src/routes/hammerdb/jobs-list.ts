import type { JobStore } from '@sledge/jobstore';
import type { Job } from '@sledge/protocol';
import { tclFixed } from '../../engine/jobs-diff.js';
import { bmOf, dbOf, dbVersion, hasResult, jobResult, jobStatusLines, jobTimestamp, nopmTpm, tprochFigures } from './jobs-data.js';

/**
 * Job lists as HammerDB's jobs module builds them: every job oldest first
 * (SELECT DISTINCT JOBID FROM JOBMAIN), the best ("top") job per benchmark,
 * the summary status and workload of a job, the `jobs` text tables, and
 * performance profile data.
 */

/** Every job, oldest first. */
export function listJobs(store: JobStore): Job[] {
  const jobs: Job[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = store.listJobs({ limit: 1000, offset });
    jobs.push(...page.jobs);
    if (page.jobs.length < 1000) break;
  }
  return jobs.reverse();
}

export interface TopJobs {
  tprocc?: string;
  tproch?: string;
}

/** gettopjobs: highest NOPM (TPROC-C), lowest geomean (TPROC-H); the earlier job keeps a tie. */
export function topJobs(store: JobStore, jobs: readonly Job[]): TopJobs {
  const top: TopJobs = {};
  let nopm = 0;
  let geomean = Infinity;
  for (const job of jobs) {
    const r = jobResult(store, job);
    if (!hasResult(r)) continue;
    const h = tprochFigures(r);
    if (h) {
      if (Number(h.geomean) < geomean) [geomean, top.tproch] = [Number(h.geomean), job.id];
    } else if (r[r.length - 1]!.startsWith('TEST RESULT') && Number(nopmTpm(r).nopm) > nopm) [nopm, top.tprocc] = [Number(nopmTpm(r).nopm), job.id];
  }
  return top;
}

/** jobs_summary_status: FAILED, TOP, SUCCESS or RUNNING. */
export function summaryStatus(store: JobStore, job: Job, top: TopJobs): string {
  const status = jobStatusLines(store, job);
  const monitor = store.getOutput(job.id, { vu: 1, limit: 100000 }).lines.map((l) => l.text);
  if (status.some((l) => l.includes('FINISHED FAILED')) || monitor.some((l) => l.includes('FINISHED FAILED'))) return 'FAILED';
  const isTop = top.tprocc === job.id || top.tproch === job.id;
  const running = status.filter((l) => l.includes(':RUNNING')).length;
  const success = status.filter((l) => l.includes(':FINISHED SUCCESS')).length;
  if (status.includes('ALL VIRTUAL USERS COMPLETE')) {
    if (running === success) return isTop ? 'TOP' : 'SUCCESS';
  } else if (monitor.some((l) => l.includes('TEST RESULT'))) return isTop ? 'TOP' : 'SUCCESS';
  return 'RUNNING';
}

/** jobs_summary_workload_metric: the workload and its headline ('--' when none). */
export function workloadMetric(store: JobStore, job: Job): [string, string] {
  const workload = ({ build: 'Schema Build', delete: 'Schema Delete', check: 'Schema Check', run: 'Benchmark Run' } as Record<string, string>)[job.type] ?? '--';
  if (job.type !== 'run') return [workload, '--'];
  const r = jobResult(store, job);
  if (!hasResult(r)) return [workload, '--'];
  if (bmOf(job) === 'TPC-C') return [workload, nopmTpm(r).nopm || '--'];
  const h = tprochFigures(r);
  return [workload, h && h.geomean ? tclFixed(Number(h.geomean), 2) : '--'];
}

/** "PostgreSQL (16.2)" when the job recorded its database version. */
export function dbWithVersion(store: JobStore, job: Job): string {
  const v = dbVersion(store, job);
  return v ? `${dbOf(job)} (${v})` : dbOf(job);
}

const pad = (s: string, n: number) => s.padEnd(n);
const row = (cells: string[]) => [pad(cells[0]!, 26), pad(cells[1]!, 18), pad(cells[2]!, 19), pad(cells[3]!, 14), pad(cells[4]!, 10), pad(cells[5]!, 8)].join(' ');

/** jobs_summary: HammerDB CLI's `jobs` tables, newest job first. */
export function jobsTables(store: JobStore, dbFile: string): string {
  const jobs = listJobs(store);
  const top = topJobs(store, jobs);
  const rows: Record<'TPC-C' | 'TPC-H', string[]> = { 'TPC-C': [], 'TPC-H': [] };
  for (const job of [...jobs].reverse()) {
    const [workload, metric] = workloadMetric(store, job);
    rows[bmOf(job)].push(row([job.id, dbWithVersion(store, job), jobTimestamp(job), workload, metric, summaryStatus(store, job, top)]));
  }
  const out = ['TPROC-C Jobs', row(['Jobid', 'Database', 'Date', 'Workload', 'NOPM', 'Status']), '-'.repeat(100)];
  out.push(...(rows['TPC-C'].length ? rows['TPC-C'] : [`No TPROC-C runs found in database file ${dbFile}.`]));
  out.push('', 'TPROC-H Jobs', row(['Jobid', 'Database', 'Date', 'Workload', 'Geomean', 'Status']), '-'.repeat(100));
  out.push(...(rows['TPC-H'].length ? rows['TPC-H'] : [`No TPROC-H jobs found in database file ${dbFile}.`]));
  return out.join('\n').trimEnd();
}

export interface ProfileEntry {
  db: string;
  bm: string;
  tstamp: string;
  activevu: string;
  nopm: string;
  tpm: string;
}

/** get_job_profile: {jobid: {db, bm, tstamp, activevu, nopm, tpm}} of a profile's TPROC-C runs with a result, oldest first. */
export function profileData(store: JobStore, profileId: number): Record<string, ProfileEntry> {
  const out: Record<string, ProfileEntry> = {};
  const points = [...store.profileJobs(profileId)].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  for (const p of points) {
    const job = store.getJob(p.jobId);
    if (!job || bmOf(job) !== 'TPC-C') continue;
    const r = jobResult(store, job);
    if (!hasResult(r) || !r[r.length - 1]!.startsWith('TEST RESULT')) continue;
    const f = nopmTpm(r);
    out[job.id] = { db: dbOf(job), bm: bmOf(job), tstamp: jobTimestamp(job), activevu: f.activevu, nopm: f.nopm, tpm: f.tpm };
  }
  return out;
}

/** Profile ids in use, ascending. */
export const profileIds = (store: JobStore): number[] => store.profiles().map((p) => p.profileId);
