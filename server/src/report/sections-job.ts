import { ENGINE_DISPLAY, WORKLOAD_DISPLAY, validityOfResult, type CapacityResult, type Job } from '@sledge/protocol';
import type { ResultFigures } from '../workloads/registry.js';
import type { ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { int, utc } from './format.js';
import { flatten, kvTable, num, table } from './tables.js';

export const engineName = (e: string) => ENGINE_DISPLAY[e as keyof typeof ENGINE_DISPLAY] ?? e;
export const workloadName = (w: string) => WORKLOAD_DISPLAY[w as keyof typeof WORKLOAD_DISPLAY] ?? w;

const stat = (value: string, key: string): Html => html`<div class="stat"><div class="v">${value}</div><div class="k">${key}</div></div>`;

/** The page heading: what ran where, and its outcome. */
export function jobHeading(job: Job): Html {
  const ok = job.status === 'completed';
  return html`<header class="top"><h1>${workloadName(job.workload)} ${job.type} on ${engineName(job.engine)}${job.label ? html` — ${job.label}` : ''}</h1>
<div><span class="mono">${job.id}</span> <span class="badge ${ok ? 'good' : 'bad'}">${job.status}</span></div></header>`;
}

/** The result as the job has it: its workload's headline figures (WorkloadReport.figures), the result line, the error, the thresholds. */
export function resultSection(job: Job, figures: ResultFigures | undefined): Html {
  const r = job.result;
  const stats = (figures?.stats ?? []).map(([value, label]) => stat(value, label));
  const line = r && 'line' in r ? r.line : undefined;
  const note = figures?.note ? html`<p class="muted">${figures.note}</p>` : '';
  return html`<section id="result"><h2>Result</h2>
${stats.length ? html`<div class="headline">${stats}</div>` : html`<p class="muted">This job has no result${job.summary ? html`: ${job.summary}` : ''}.</p>`}
${line ? html`<p><span class="result-line">${line}</span></p>` : ''}${note}
${job.error ? html`<p class="bad"><b>${job.error.code}</b>: ${job.error.message}</p>` : ''}
${thresholds(job)}${capacity(job)}${validity(job)}</section>`;
}

/** A capacity search (result field `capacity`): the found rate, its latency in the hold, and every probe. */
function capacity(job: Job): Html | '' {
  const c = (job.result as { capacity?: CapacityResult } | null | undefined)?.capacity;
  if (!c) return '';
  const lat = Object.entries(c.latency);
  return html`<h3 id="capacity">Capacity at SLO <span class="mono">${c.slo}</span>: <span class="${c.held ? 'good' : 'bad'}">${c.rate === null ? 'none' : `${c.rate} tx/s`} ${c.held ? 'held' : 'not held'}</span></h3>
<p class="muted">${c.reason}</p>
${lat.length ? table(['transaction', num('p50 ms'), num('p95 ms'), num('p99 ms'), num('calls')], lat.map(([op, l]) => [op, num(String(l.p50)), num(String(l.p95)), num(String(l.p99)), num(int(l.calls))])) : ''}
${table(
  ['probe', 'phase', num('rate /s'), num('achieved /s'), num('dropped'), num('neworder p95 ms'), 'verdict', 'conditions'],
  c.probes.map((p) => [
    String(p.index),
    p.phase,
    num(String(p.rate)),
    num(String(p.achievedRate)),
    num(`${p.dropped}/${p.scheduled}`),
    num(p.latency['neworder'] ? String(p.latency['neworder'].p95) : ''),
    html`<span class="${p.passed ? 'good' : 'bad'}">${p.passed ? 'pass' : 'fail'}</span>`,
    p.checks.map((x) => x.message).join('; '),
  ]),
)}`;
}

/** The run's validity verdict (result field `validity`): each check's status and why; nothing for a job without one. */
function validity(job: Job): Html | '' {
  const v = validityOfResult(job.result);
  if (!v) return '';
  const cls = (s: string) => (s === 'pass' ? 'good' : s === 'skip' ? 'muted' : 'bad');
  return html`<h3 id="validity">Validity: <span class="${cls(v.status)}">${v.status}</span></h3>
${table(['check', 'status', 'detail'], v.checks.map((c) => [c.title, html`<span class="${cls(c.status)}">${c.status}</span>`, c.detail]))}`;
}

function thresholds(job: Job): Html | '' {
  if (!job.thresholdResults?.length) return '';
  return html`<h3>Thresholds: <span class="${job.passed ? 'good' : 'bad'}">${job.passed ? 'passed' : 'failed'}</span></h3>
${table(['condition', num('actual'), num('limit'), 'unit', 'held', 'message'], job.thresholdResults.map((t) => [t.expr, num(String(t.actual ?? '')), num(String(t.limit)), t.unit ?? '', t.ok ? 'yes' : 'no', t.message ?? '']))}`;
}

/** Identity and timing of the job, and its configuration (secrets already replaced by ********). */
export function configSection(job: Job): Html {
  const meta: [string, string][] = [
    ['job id', job.id],
    ['type', job.type],
    ['workload', workloadName(job.workload)],
    ['engine', engineName(job.engine)],
    ['engine version', job.engineVersion ?? ''],
    ['client', job.clientVersion],
    ['created', utc(job.createdAt)],
    ['started', utc(job.startedAt)],
    ['ended', utc(job.endedAt)],
    ['seed', String(job.seed)],
    ['profile', job.profileId ? String(job.profileId) : ''],
    ['summary', job.summary ?? ''],
  ];
  return html`<section id="config"><h2>Job and configuration</h2><div class="cols">
<div><h3>Job</h3>${kvTable(meta.filter(([, v]) => v !== ''))}</div>
<div><h3>Configuration</h3>${kvTable(flatten(job.config))}<p class="muted">Passwords and other secrets are replaced by ********.</p></div>
</div></section>`;
}

/** The end of the job's log (HammerDB's output lines), already scrubbed of secrets when stored. */
export function outputSection(d: Pick<ReportData, 'output' | 'outputTotal'>): Html | '' {
  if (!d.output.length) return '';
  const shown = d.output.length < d.outputTotal ? `last ${int(d.output.length)} of ${int(d.outputTotal)} lines` : `${int(d.outputTotal)} lines`;
  const text = d.output.map((l) => `${l.vu ? `Vuser ${l.vu}: ` : ''}${l.text}`).join('\n');
  return html`<section id="output"><details><summary><b>Output</b> <span class="muted">(${shown})</span></summary><pre class="out">${text}</pre></details></section>`;
}
