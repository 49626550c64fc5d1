import type { JobStore } from '@sledge/jobstore';
import { SledgeError } from '@sledge/protocol';
import { reportData, type ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { workloadName } from './sections-job.js';
import { timingCompare } from './compare-sections.js';
import { flatten, table } from './tables.js';
import { page } from './page.js';
import { workloadReport } from '../workloads/index.js';

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 8;

/** Check a compare's ids: 2..8 distinct ids, each a job (typed errors naming what to fix). */
export function loadCompare(store: JobStore, jobIds: readonly string[]): ReportData[] {
  const ids = jobIds.map((s) => s.trim()).filter(Boolean);
  if (ids.length < MIN_COMPARE || ids.length > MAX_COMPARE)
    throw new SledgeError('SLEDGE_E_VALIDATION', `a comparison takes ${MIN_COMPARE} to ${MAX_COMPARE} job ids separated by commas (got ${ids.length})`, { field: 'jobs' });
  const dup = ids.find((x, i) => ids.indexOf(x) !== i);
  if (dup) throw new SledgeError('SLEDGE_E_VALIDATION', `job ${dup} is listed twice: list each job once`, { field: 'jobs' });
  const data = ids.map((id) => reportData(store, id));
  const workloads = [...new Set(data.map((d) => d.job.workload))];
  if (workloads.length > 1) throw new SledgeError('SLEDGE_E_VALIDATION', `jobs of different workloads (${workloads.join(', ')}) cannot be compared: pick jobs of one workload`, { field: 'jobs' });
  return data;
}

/** Several jobs side by side in one self-contained page: headline, timelines, time profiles, configuration differences. */
export function renderCompareReport(store: JobStore, jobIds: string[]): string {
  const data = loadCompare(store, jobIds);
  const report = workloadReport(data[0]!.job.workload);
  const heading = html`<header class="top"><h1>Comparison of ${data.length} ${workloadName(data[0]!.job.workload)} jobs</h1><div class="muted">base: job 1 (<span class="mono">${data[0]!.job.id}</span>)</div></header>`;
  // The workload's own sections (workloads/<id>/report.ts); a workload without them gets the time profile compare.
  const sections = report?.compare ? report.compare(data) : [timingCompare(data)];
  return page(`Sledge comparison ${data.map((d) => d.job.id).join(' ')}`, heading, [...sections.filter((s): s is Html => s !== ''), configDiff(data)]);
}

/** The configuration keys whose values differ between the jobs (all redacted). */
function configDiff(data: ReportData[]): Html {
  const maps = data.map((d) => new Map(flatten(d.job.config)));
  const keys = [...new Set(maps.flatMap((m) => [...m.keys()]))].sort();
  const differ = keys.filter((k) => new Set(maps.map((m) => m.get(k) ?? '')).size > 1);
  const body = differ.length
    ? table(['setting', ...data.map((_, i) => `${i + 1}.`)], differ.map((k) => [k, ...maps.map((m) => m.get(k) ?? '—')]))
    : html`<p class="muted">The jobs' configurations are the same.</p>`;
  return html`<section id="config"><h2>Configuration differences</h2>${body}<p class="muted">Secrets are replaced by ********.</p></section>`;
}
