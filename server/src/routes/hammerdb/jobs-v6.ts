import type { JobStore } from '@sledge/jobstore';
import { isTerminal, SledgeError, type Job } from '@sledge/protocol';
import { buildArtifact } from '../../artifact/build.js';
import { diffProfiles } from '../../engine/profile-diff.js';
import { renderJobReport } from '../../report/index.js';
import { allLines, bmOf, dbOf, hasResult, jobDict, jobMetrics, jobResult, jobStatusLines, jobSystem, jobTcount, jobTiming, jobTimestamp, localTimestamp, SYSTEM_FIELDS } from './jobs-data.js';
import { profileData } from './jobs-list.js';
import { failure, success, type Outcome } from './reply.js';
import { tclValue } from './tcl-text.js';

/**
 * HammerDB v6.0's jobs viewer forms (hammerdb.md §3.1) that v4.x did not
 * have: the JSON data forms (&summaryjson, &resultdata, &timingdata,
 * &tcountdata, &metricsdata, profileid=N&profiledata, &DELETE), `raw=1`
 * sections, the index, profile diffs; and, for a browser, where HammerDB
 * answers with an HTML page, a redirect to the dashboard's page for it.
 */

export type ViewerAnswer = { kind: 'json'; body: Outcome } | { kind: 'raw'; body: unknown } | { kind: 'redirect'; url: string } | { kind: 'html'; body: string };
export const json = (body: Outcome): ViewerAnswer => ({ kind: 'json', body });

export const V6_USAGE = 'Usage: /jobs | jobs?jobid=JOBID | jobs?jobid=JOBID&index | jobs?jobid=JOBID&summary | jobs?jobid=JOBID&bm|db|dict|status|system|timestamp | add &raw=1 for JSON';
const SECTIONS = ['bm', 'db', 'dict', 'status', 'system', 'timestamp'] as const;
/** Forms HammerDB v6 answers with an HTML page. */
const HTML_FORMS = new Set(['', 'index', 'summary', 'result', 'timing', 'tcount', 'metrics', 'delete', 'vu', ...SECTIONS]);

export interface ViewerRequest {
  params: Map<string, string>;
  raw: boolean;
  browser: boolean;
}

/** The v6 raw section value: {"jobid","section","value"} with a string value. */
function rawSection(store: JobStore, job: Job, section: (typeof SECTIONS)[number]): ViewerAnswer {
  const values: Record<(typeof SECTIONS)[number], () => string> = {
    bm: () => bmOf(job).replace('TPC', 'TPROC'),
    db: () => dbOf(job),
    dict: () => tclValue(jobDict(job)),
    status: () => jobStatusLines(store, job).join(' '),
    system: () => {
      const row = jobSystem(store, job);
      const lines = row ? ['jobid', ...SYSTEM_FIELDS].flatMap((f) => (f === 'jobid' ? [`jobid: ${job.id}`] : row[f] ? [`${f}: ${row[f]}`] : [])) : [];
      return lines.length > 1 ? lines.join('\n') : 'No system data available';
    },
    timestamp: () => jobTimestamp(job),
  };
  return json({ jobid: job.id, section, value: values[section]() });
}

/** &index: the links HammerDB's index page shows for the job. */
function indexLinks(store: JobStore, job: Job): ViewerAnswer {
  const q = (form: string) => `/jobs?jobid=${job.id}${form ? `&${form}` : ''}`;
  const result = hasResult(jobResult(store, job));
  const links: { name: string; url: string }[] = [];
  if (result) links.push({ name: 'summary', url: q('summary') }, { name: 'summaryjson', url: q('summaryjson') });
  links.push({ name: 'output', url: q('') }, { name: 'benchmark', url: q('bm') }, { name: 'database', url: q('db') }, { name: 'dict configuration', url: q('dict') });
  if (result) links.push({ name: 'result', url: q('result') });
  links.push({ name: 'status', url: q('status') });
  if (jobTcount(store, job)) links.push({ name: 'transaction count', url: q('tcount') });
  if (jobSystem(store, job)) links.push({ name: 'system', url: q('system') });
  if (jobMetrics(store, job).length) links.push({ name: 'metrics', url: q('metrics') });
  links.push({ name: 'timestamp', url: q('timestamp') });
  if (bmOf(job) === 'TPC-H' ? result : jobTiming(store, job)) links.push({ name: 'response times', url: q('timing') });
  links.push({ name: 'delete', url: q('delete') });
  return json({ jobid: job.id, links });
}

/** &DELETE: only a job that completed, or one older than 24 hours (Sledge never deletes a job still running). */
function deleteJob(store: JobStore, job: Job): ViewerAnswer {
  const ageHours = (Date.now() - Date.parse(job.createdAt)) / 3_600_000;
  if (!isTerminal(job.status)) {
    return json(failure(ageHours > 24 ? `Jobid ${job.id} is ${job.status}: wait for it to end (or vudestroy) before deleting it` : `Cannot delete Jobid ${job.id} from ${jobTimestamp(job)} did not complete and ran less than 24 hours ago`));
  }
  store.deleteJob(job.id);
  return json(success(`Deleted Jobid ${job.id}`));
}

/** &timingdata: summary timing by ratio, or (TPROC-H) VU 1's output lines. */
function timingData(store: JobStore, job: Job): ViewerAnswer {
  if (bmOf(job) === 'TPC-H' && hasResult(jobResult(store, job))) return json(allLines(store, job.id, 1).flatMap((l) => [l.vu, l.text]));
  return json(jobTiming(store, job) ?? [job.id, 'Jobid has no timing data']);
}

function dataForm(store: JobStore, job: Job, form: string): ViewerAnswer | undefined {
  switch (form) {
    case 'summaryjson':
      try {
        return { kind: 'raw', body: buildArtifact(store, job) };
      } catch (e) {
        if (e instanceof SledgeError) return json(failure(e.message));
        throw e;
      }
    case 'resultdata':
      return json(jobResult(store, job));
    case 'timingdata':
      return timingData(store, job);
    case 'tcountdata': {
      const t = jobTcount(store, job);
      return json(t ? { [t.name]: Object.fromEntries(t.points.map(([ts, v]) => [localTimestamp(ts), v])) } : [job.id, 'Jobid has no transaction counter data']);
    }
    case 'metricsdata': {
      const rows = jobMetrics(store, job);
      return json(rows.length ? Object.fromEntries(rows.map((r) => [localTimestamp(r.ts), { 'usr%': r.usr, 'sys%': r.sys, 'irq%': r.irq, 'idle%': r.idle, iops: r.iops, mbps: r.mbps }])) : [job.id, 'Jobid has no metric data']);
    }
    case 'DELETE':
      return deleteJob(store, job);
    case 'index':
      return indexLinks(store, job);
    default:
      return undefined;
  }
}

/** cmd=profilediff&base_pid=A&new_pid=B[&weighted=1]: the diff figures. */
function profileDiff(store: JobStore, req: ViewerRequest): ViewerAnswer {
  const [b, n] = [req.params.get('base_pid'), req.params.get('new_pid')];
  if (b === undefined || n === undefined) return json(failure('Please select one Base profile and one New profile to compare.'));
  if (!/^\d+$/.test(b) || !/^\d+$/.test(n) || Number(b) < 1 || Number(n) < 1) return json(failure('Invalid profile selection.'));
  if (b === n) return json(failure('Base and New profiles must be different.'));
  if (req.browser && !req.raw) return { kind: 'redirect', url: `/compare?profile=${n}&base=${b}` };
  const weighted = /^(1|true)$/i.test(req.params.get('weighted') ?? '');
  const d = diffProfiles(store, store.profileJobs(Number(b)), store.profileJobs(Number(n)), weighted, `profile ${b}`);
  if ('missing' in d) return json(failure(`Profiles ${b} and ${n}: ${d.missing.replace('this run', `profile ${n} ran`)}`));
  return json({ base_pid: b, new_pid: n, weighted: weighted ? 'true' : 'false', matched: d.matched, activevu: d.activeVus.join(' '), avg_base: d.avgBase, avg_comp: d.avgComp, ratio: d.diff, lines: d.lines });
}

/** jobs?profileid=N[&profiledata]. */
function profileForm(store: JobStore, req: ViewerRequest, id: string): ViewerAnswer {
  if (!/^\d+$/.test(id) || Number(id) < 1) return json(failure('Error: Performance profile id should be an integer greater than 0'));
  if (req.browser && !req.raw && !req.params.has('profiledata')) return { kind: 'redirect', url: `/compare?profile=${id}` };
  return json(profileData(store, Number(id)));
}

/** A v6 form, or undefined when the request is one of the v4.x forms (jobs-viewer.ts answers those). */
export function v6Form(store: JobStore, req: ViewerRequest): ViewerAnswer | undefined {
  const p = req.params;
  if (p.get('cmd') === 'profilediff') return profileDiff(store, req);
  if (!p.has('jobid')) return p.has('profileid') ? profileForm(store, req, p.get('profileid')!) : undefined;
  const job = store.getJob(p.get('jobid')!.toUpperCase());
  if (!job) return json(failure(`Jobid ${p.get('jobid')} does not exist`));
  const forms = [...p.keys()].filter((k) => k !== 'jobid');
  const form = forms.length === 0 ? '' : forms.length === 1 ? forms[0]! : forms.includes('vu') ? 'vu' : forms[0]!;
  // &summary is v6's benchmark report: Sledge's self-contained HTML report of the job (server/src/report).
  if (form === 'summary' && forms.length === 1) return { kind: 'html', body: renderJobReport(store, job.id) };
  if (req.browser && !req.raw && HTML_FORMS.has(form)) return { kind: 'redirect', url: `/jobs/${job.id}` };
  if (req.raw && (SECTIONS as readonly string[]).includes(form) && forms.length === 1) return rawSection(store, job, form as (typeof SECTIONS)[number]);
  const data = forms.length === 1 ? dataForm(store, job, form) : undefined;
  if (data) return data;
  return undefined;
}
