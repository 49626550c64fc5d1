import type { JobStore } from '@sledge/jobstore';
import { isTerminal, type Job, type OutputLine } from '@sledge/protocol';
import { databaseByEngine, defaultDict } from './dicts.js';
import { sledgeToDict } from './keymap.js';
import { failure, success, type Outcome } from './reply.js';
import { maskDict } from './settings.js';

/**
 * HammerDB's jobs viewer (hammerdb.md §3.1-§3.3, the v4.x JSON forms) over
 * Sledge's job store:
 *
 *   /jobs                              ["ID", ...] oldest first
 *   /jobs?jobid=ID                     ["vu","line","vu","line",...] all output
 *   /jobs?jobid=ID&vu=N                the lines of VU N
 *   /jobs?jobid=ID&status              the status stream (VU 0)
 *   /jobs?jobid=ID&result              ["ID","ts","N Active Virtual Users configured","TEST RESULT : ..."]
 *   /jobs?jobid=ID&timing[&vu=N]       {"NEWORD":{"elapsed_ms":..,"calls":..,...},...}
 *   /jobs?jobid=ID&tcount              {"PostgreSQL tpm":{"<ts>":"<tpm>",...}}
 *   /jobs?jobid=ID&db | &bm | &dict | &timestamp
 *   /jobs?jobid=ID&delete              {"success":{"message":"Deleted Jobid ID"}}
 *
 * `raw=1` (v4.8+) is accepted and ignored: every answer is JSON.
 */
const TWO_PARAM_USAGE =
  'Jobs Two Parameter Usage: jobs?jobid=TEXT&status or jobs?jobid=TEXT&db or jobs?jobid=TEXT&bm or jobs?jobid=TEXT&timestamp or jobs?jobid=TEXT&dict or jobs?jobid=TEXT&vu=INTEGER or jobs?jobid=TEXT&result or jobs?jobid=TEXT&timing or jobs?jobid=TEXT&tcount or jobs?jobid=TEXT&delete';
const THREE_PARAM_USAGE = 'Jobs Three Parameter Usage: jobs?jobid=JOBID&timing&vu=VUID';

/** HammerDB's local 'YYYY-MM-DD HH:MM:SS'. */
export function localTimestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Query parameters in order; `a&b=1` -> [['a',''],['b','1']]. */
export function queryParams(query: string): [string, string][] {
  return query
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const i = p.indexOf('=');
      const dec = (x: string) => {
        try {
          return decodeURIComponent(x.replace(/\+/g, ' '));
        } catch {
          return x;
        }
      };
      return i < 0 ? [dec(p), ''] : [dec(p.slice(0, i)), dec(p.slice(i + 1))];
    });
}

function allLines(store: JobStore, jobId: string, vu?: number): OutputLine[] {
  const out: OutputLine[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = store.getOutput(jobId, { afterSeq, limit: 100000, ...(vu === undefined ? {} : { vu }) });
    out.push(...page.lines);
    if (page.lines.length < 100000) return out;
    afterSeq = page.lines[page.lines.length - 1]!.seq;
  }
}

const flat = (lines: readonly OutputLine[]) => lines.flatMap((l) => [l.vu, l.text]);

/**
 * The status stream as HammerDB writes it. Sledge's run jobs write VU 0
 * themselves; builds, checks and deletes do not, so their lines are derived
 * from the job's status ("Vuser 1:RUNNING", "Vuser 1:FINISHED SUCCESS" or
 * "Vuser 1:FINISHED FAILED", "ALL VIRTUAL USERS COMPLETE").
 */
export function statusLines(job: Job, stored: readonly string[]): string[] {
  const lines = [...stored];
  if (job.status === 'queued') return lines;
  if (!lines.some((l) => l.endsWith(':RUNNING'))) lines.unshift('Vuser 1:RUNNING');
  if (isTerminal(job.status)) {
    if (!lines.some((l) => /:FINISHED (SUCCESS|FAILED)$/.test(l))) lines.push(job.status === 'completed' ? 'Vuser 1:FINISHED SUCCESS' : 'Vuser 1:FINISHED FAILED');
    if (!lines.includes('ALL VIRTUAL USERS COMPLETE')) lines.push('ALL VIRTUAL USERS COMPLETE');
  }
  return lines;
}

function timing(store: JobStore, job: Job, vu: number | undefined): Outcome {
  const rows = store.getTimings(job.id, { vu: vu ?? 0 }).filter((r) => r.vu === (vu ?? 0));
  if (!rows.length) return failure(vu === undefined ? `No Timing Data for JOB ${job.id}: jobs?jobid=JOBID&timing` : `No Timing Data for VU ${vu} for JOB ${job.id}: jobs?jobid=JOBID&timing&vu=VUID`);
  rows.sort((a, b) => b.ratioPct - a.ratioPct);
  return Object.fromEntries(
    rows.map((r) => [
      r.proc,
      {
        elapsed_ms: r.elapsedMs,
        calls: r.calls,
        min_ms: r.minMs,
        avg_ms: r.avgMs,
        max_ms: r.maxMs,
        total_ms: r.totalMs,
        p99_ms: r.p99Ms,
        p95_ms: r.p95Ms,
        p75_ms: r.p75Ms,
        p50_ms: r.p50Ms,
        p25_ms: r.p25Ms,
        sd: r.sdMs,
        ratio_pct: r.ratioPct,
      },
    ]),
  );
}

function result(store: JobStore, job: Job): Outcome {
  const ts = localTimestamp(Date.parse(job.createdAt));
  if (!job.result) return [job.id, 'Jobid has no test result'];
  const monitor = allLines(store, job.id, 1).map((l) => l.text);
  const active = monitor.find((l) => l.includes('Active Virtual Users') || l.includes('Active Sessions'));
  return active ? [job.id, ts, active, job.result.line] : [job.id, ts, job.result.line];
}

/** The job's configuration as the HammerDB dict of its database (secrets stay redacted). */
function jobDict(job: Job): Outcome {
  const db = databaseByEngine(job.engine);
  const cfg = (job.config ?? {}) as { target?: Record<string, unknown>; tprocc?: Record<string, unknown> };
  return maskDict(sledgeToDict(db.prefix, job.engine, defaultDict(db.prefix), cfg));
}

function tcount(store: JobStore, job: Job): Outcome {
  const samples = store.getTcount(job.id).engine;
  if (!samples.length) return failure(`No Transaction Counter Data for JOB ${job.id}: jobs?jobid=JOBID&tcount`);
  return { [`${databaseByEngine(job.engine).name} tpm`]: Object.fromEntries(samples.map((x) => [localTimestamp(x.ts), Math.round(x.tpm)])) };
}

function listJobIds(store: JobStore): string[] {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = store.listJobs({ limit: 1000, offset });
    ids.push(...page.jobs.map((j) => j.id));
    if (page.jobs.length < 1000) break;
  }
  return ids.reverse();
}

/** The answer for GET /jobs?<query>. */
export function jobsView(store: JobStore, query: string): Outcome {
  const params = queryParams(query).filter(([k]) => k !== 'raw' && k !== 'token');
  if (params.length === 0) return listJobIds(store);
  if (params.length > 3) return failure('Usage: jobs?query=parameter');
  const keys = params.map(([k]) => k);
  const get = (k: string) => params.find(([x]) => x === k)?.[1];
  const jobId = get('jobid');
  if (jobId === undefined) return failure(params.length === 1 ? 'Jobs One Parameter Usage: jobs?jobid=TEXT' : params.length === 3 ? THREE_PARAM_USAGE : TWO_PARAM_USAGE);
  const job = store.getJob(jobId.toUpperCase());
  if (!job) return failure(`Jobid ${jobId} does not exist`);
  if (params.length === 1) return flat(allLines(store, job.id));
  const vuParam = get('vu');
  const vu = vuParam !== undefined && /^\d+$/.test(vuParam) ? Number(vuParam) : undefined;
  if (params.length === 3) {
    if (!(keys.includes('timing') && vuParam !== undefined)) return failure(THREE_PARAM_USAGE);
    if (vu === undefined) return failure(THREE_PARAM_USAGE);
    return timing(store, job, vu);
  }
  const cmd = keys.find((k) => k !== 'jobid')!;
  switch (cmd) {
    case 'vu': {
      if (vu === undefined) return failure(TWO_PARAM_USAGE);
      const lines = allLines(store, job.id, vu);
      return lines.length ? flat(lines) : failure(`Jobid ${job.id} for virtual user ${vu} does not exist`);
    }
    case 'status':
      return statusLines(
        job,
        allLines(store, job.id, 0).map((l) => l.text),
      ).flatMap((l) => [0, l]);
    case 'result':
      return result(store, job);
    case 'timing':
      return timing(store, job, undefined);
    case 'tcount':
      return tcount(store, job);
    case 'db':
      return [databaseByEngine(job.engine).name];
    case 'bm':
      return ['TPC-C'];
    case 'dict':
      return jobDict(job);
    case 'timestamp':
      return { [job.id]: localTimestamp(Date.parse(job.createdAt)) };
    case 'delete':
      if (!isTerminal(job.status)) return failure(`Jobid ${job.id} is ${job.status}: wait for it to end (or vudestroy) before deleting it`);
      store.deleteJob(job.id);
      return success(`Deleted Jobid ${job.id}`);
    default:
      return failure(TWO_PARAM_USAGE);
  }
}

/**
 * Whether a GET /jobs request is for the HammerDB viewer rather than the
 * dashboard: anything that does not ask for HTML, and HTML requests that
 * carry HammerDB's `jobid` (the dashboard's own /jobs?engine=... filters
 * stay with the dashboard).
 */
export function wantsJobsViewer(url: string, accept: string | undefined): boolean {
  const q = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  if (!/\btext\/html\b/i.test(accept ?? '')) return true;
  return queryParams(q).some(([k]) => k === 'jobid');
}
