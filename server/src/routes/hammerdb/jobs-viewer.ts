import type { JobStore } from '@sledge/jobstore';
import { isTerminal, type Job, type OutputLine } from '@sledge/protocol';
import { allLines, bmOf, dbOf, dbVersion, jobDict, jobResult, jobStatusLines, jobSystem, jobTcount, jobTiming, localTimestamp } from './jobs-data.js';
import { listJobs } from './jobs-list.js';
import { json, metricsData, V6_USAGE, v6Form, type ViewerAnswer } from './jobs-v6.js';
import { failure, success, type Outcome } from './reply.js';

export { localTimestamp, statusLines } from './jobs-data.js';
export type { ViewerAnswer } from './jobs-v6.js';

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
 *   /jobs?jobid=ID&db                  ["PostgreSQL","16.2"] (the version when the run recorded DBVersion:)
 *   /jobs?jobid=ID&timestamp           {"ID":{"2026-11-24":"05:56:01"}} (4.12's wapp-2-json splits the value)
 *   /jobs?jobid=ID&system              ["<hostname>","<cpucount>","<cpumodel>"] or ["No system data available"]
 *   /jobs?jobid=ID&bm | &dict | &metrics
 *   /jobs?jobid=ID&delete              {"success":{"message":"Deleted Jobid ID"}}
 *
 * v6.0's forms (summaryjson, resultdata, timingdata, tcountdata,
 * metricsdata, index, profileid, cmd=profilediff, DELETE, raw=1 sections)
 * are in jobs-v6.ts.
 */
const TWO_PARAM_USAGE =
  'Jobs Two Parameter Usage: jobs?jobid=TEXT&status or jobs?jobid=TEXT&db or jobs?jobid=TEXT&bm or jobs?jobid=TEXT&timestamp or jobs?jobid=TEXT&dict or jobs?jobid=TEXT&vu=INTEGER or jobs?jobid=TEXT&result or jobs?jobid=TEXT&timing or jobs?jobid=TEXT&tcount or jobs?jobid=TEXT&delete';
const THREE_PARAM_USAGE = 'Jobs Three Parameter Usage: jobs?jobid=JOBID&timing&vu=VUID';

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

const flat = (lines: readonly OutputLine[]) => lines.flatMap((l) => [l.vu, l.text]);

function timing(store: JobStore, job: Job, vu: number | undefined): Outcome {
  const t = jobTiming(store, job, vu);
  if (!t) return failure(vu === undefined ? `No Timing Data for JOB ${job.id}: jobs?jobid=JOBID&timing` : `No Timing Data for VU ${vu} for JOB ${job.id}: jobs?jobid=JOBID&timing&vu=VUID`);
  return t;
}

function tcount(store: JobStore, job: Job): Outcome {
  const t = jobTcount(store, job);
  if (!t) return failure(`No Transaction Counter Data for JOB ${job.id}: jobs?jobid=JOBID&tcount`);
  return { [t.name]: Object.fromEntries(t.points.map(([ts, v]) => [localTimestamp(ts), v])) };
}

/** The v4.x two-parameter forms. */
function twoParam(store: JobStore, job: Job, cmd: string, vu: number | undefined, usage: string): Outcome {
  switch (cmd) {
    case 'vu': {
      if (vu === undefined) return failure(usage);
      const lines = allLines(store, job.id, vu);
      return lines.length ? flat(lines) : failure(`Jobid ${job.id} for virtual user ${vu} does not exist`);
    }
    case 'status':
      return jobStatusLines(store, job).flatMap((l) => [0, l]);
    case 'result':
      return jobResult(store, job);
    case 'timing':
      return timing(store, job, undefined);
    case 'tcount':
      return tcount(store, job);
    case 'db':
      // HammerDB 4.12 appends the version from VU 1's "DBVersion:" line and compiles "db version" as a list: one string a word.
      return [dbOf(job), dbVersion(store, job)].filter((w) => w !== '');
    case 'bm':
      return [bmOf(job)];
    case 'dict':
      return jobDict(job);
    case 'system': {
      // HammerDB 4.12 answers its JOBSYSTEM row as a list, hostname cpucount cpumodel (strings), or one message (v6's form: &raw=1).
      const row = jobSystem(store, job);
      return row ? [row['hostname'] ?? '', row['cpucount'] ?? '', row['cpumodel'] ?? ''] : ['No system data available'];
    }
    case 'metrics':
      return metricsData(store, job);
    case 'timestamp': {
      // HammerDB 4.12 answers `wapp-2-json 2 {ID {date time}}`: huddle's {dict * dict} makes the date-and-time pair a dict of its own.
      const [date, time] = localTimestamp(Date.parse(job.createdAt)).split(' ') as [string, string];
      return { [job.id]: { [date]: time } };
    }
    case 'delete':
      if (!isTerminal(job.status)) return failure(`Jobid ${job.id} is ${job.status}: wait for it to end (or vudestroy) before deleting it`);
      store.deleteJob(job.id);
      return success(`Deleted Jobid ${job.id}`);
    default:
      return failure(usage);
  }
}

/** The v4.x JSON forms; `raw=1` (a v6 client) gets v6's usage text for what it does not know. */
function v4Form(store: JobStore, params: [string, string][], raw: boolean): Outcome {
  if (params.length === 0) return listJobs(store).map((j) => j.id);
  if (params.length > 3) return failure(raw ? V6_USAGE : 'Usage: jobs?query=parameter');
  const keys = params.map(([k]) => k);
  const get = (k: string) => params.find(([x]) => x === k)?.[1];
  const jobId = get('jobid');
  if (jobId === undefined) return failure(raw ? 'Usage: /jobs or jobs?jobid=JOBID or jobs?profileid=ID' : params.length === 1 ? 'Jobs One Parameter Usage: jobs?jobid=TEXT' : params.length === 3 ? THREE_PARAM_USAGE : TWO_PARAM_USAGE);
  const job = store.getJob(jobId.toUpperCase());
  if (!job) return failure(`Jobid ${jobId} does not exist`);
  if (params.length === 1) return flat(allLines(store, job.id));
  const vuParam = get('vu');
  const vu = vuParam !== undefined && /^\d+$/.test(vuParam) ? Number(vuParam) : undefined;
  if (params.length === 3) {
    if (!(keys.includes('timing') && vuParam !== undefined) || vu === undefined) return failure(raw ? V6_USAGE : THREE_PARAM_USAGE);
    return timing(store, job, vu);
  }
  return twoParam(store, job, keys.find((k) => k !== 'jobid')!, vu, raw ? V6_USAGE : TWO_PARAM_USAGE);
}

/**
 * The answer for GET /jobs?<query>: a v6 form (jobs-v6.ts) or a v4.x JSON
 * form; `browser`: the request asks for HTML (HTML-only forms redirect to the
 * dashboard).
 */
export function jobsView(store: JobStore, query: string, browser = false): ViewerAnswer {
  const all = queryParams(query).filter(([k]) => k !== 'token');
  const raw = all.some(([k, v]) => k === 'raw' && v !== '0');
  const params = all.filter(([k]) => k !== 'raw');
  return v6Form(store, { params: new Map(params), raw, browser }) ?? json(v4Form(store, params, raw));
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
