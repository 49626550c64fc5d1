import type { JobStore } from '@sledge/jobstore';
import { SledgeError, isTproccResult, isTprochResult } from '@sledge/protocol';
import { reportData, type ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { fixed, int, ms, pctChange, utc } from './format.js';
import { engineName, workloadName } from './sections-job.js';
import { chartableEngine } from './job-charts.js';
import { headlineBarsOption, overlayOption } from './compare-charts.js';
import { QUERIES, queryBarsOption, queryTime, streamsOf } from './tproch-charts.js';
import { themedChart } from './svg.js';
import { flatten, num, table, type Cell } from './tables.js';
import { jobStart, since } from './timeline.js';
import { page } from './page.js';

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

const vusOf = (d: ReportData): number | undefined => {
  const r = d.job.result;
  if (isTproccResult(r)) return r.activeVus;
  const v = (d.job.config as { tprocc?: { vus?: unknown } }).tprocc?.vus;
  return typeof v === 'number' ? v : undefined;
};

/** A job's name in legends: its label, else engine, VUs and the end of its id. */
export const legendName = (d: ReportData, i: number): string => `${i + 1}. ${d.job.label ?? `${engineName(d.job.engine)} ${vusOf(d) ?? '?'} VU …${d.job.id.slice(-8)}`}`;

/** Several jobs side by side in one self-contained page: headline, timelines, time profiles, configuration differences. */
export function renderCompareReport(store: JobStore, jobIds: string[]): string {
  const data = loadCompare(store, jobIds);
  const tproch = data[0]!.job.workload === 'tproch';
  const heading = html`<header class="top"><h1>Comparison of ${data.length} ${workloadName(data[0]!.job.workload)} jobs</h1><div class="muted">base: job 1 (<span class="mono">${data[0]!.job.id}</span>)</div></header>`;
  const sections = tproch ? [tprochCompare(data)] : [tproccHeadline(data), tproccTimelines(data), timingCompare(data)];
  return page(`Sledge comparison ${data.map((d) => d.job.id).join(' ')}`, heading, [...sections.filter((s): s is Html => s !== ''), configDiff(data)]);
}

function tproccHeadline(data: ReportData[]): Html {
  const base = data[0]!.job.result;
  const b = isTproccResult(base) ? base : undefined;
  const rows = data.map((d, i): Cell[] => {
    const r = isTproccResult(d.job.result) ? d.job.result : undefined;
    return [legendName(d, i), html`<span class="mono">${d.job.id}</span>`, engineName(d.job.engine), d.job.status, num(int(vusOf(d))), num(int(r?.warehouses)), num(int(r?.nopm)), num(i ? pctChange(r?.nopm, b?.nopm) : ''), num(int(r?.tpm)), num(i ? pctChange(r?.tpm, b?.tpm) : ''), utc(d.job.startedAt)];
  });
  const heads = data.map((d, i) => ({ name: legendName(d, i), values: isTproccResult(d.job.result) ? { NOPM: d.job.result.nopm, TPM: d.job.result.tpm } : {} }));
  return html`<section id="headline"><h2>Result</h2>
${themedChart('NOPM and TPM per job', (p) => headlineBarsOption(heads, ['NOPM', 'TPM'], p), { width: 760, height: 260 })}
${table(['job', 'id', 'engine', 'status', num('VUs'), num('warehouses'), num('NOPM'), num('Δ NOPM'), num('TPM'), num('Δ TPM'), 'started'], rows)}</section>`;
}

function tproccTimelines(data: ReportData[]): Html | '' {
  const lines = data.map((d, i) => {
    const t = since(jobStart(d));
    return { name: legendName(d, i), points: chartableEngine(d.engine).map((s): [number, number] => [t(s.ts), s.nopm]) };
  });
  if (lines.every((l) => !l.points.length)) return '';
  return html`<section id="timelines"><h2>NOPM over time</h2>${themedChart('NOPM, each job on its own elapsed time', (p) => overlayOption(lines, 'NOPM', p))}</section>`;
}

function timingCompare(data: ReportData[]): Html | '' {
  const procs = [...new Set(data.flatMap((d) => d.timings.map((r) => r.proc)))];
  if (!procs.length) return '';
  const p95 = (d: ReportData, proc: string) => d.timings.find((r) => r.proc === proc)?.p95Ms;
  const heads = data.map((d, i) => ({ name: legendName(d, i), values: Object.fromEntries(procs.map((x) => [x, p95(d, x)])) }));
  const rows = procs.map((proc): Cell[] => [proc, ...data.flatMap((d, i) => [num(ms(p95(d, proc))), ...(i ? [num(pctChange(p95(d, proc), p95(data[0]!, proc)))] : [])])]);
  const header: Cell[] = ['transaction', ...data.flatMap((d, i) => [num(`${i + 1}. p95 ms`), ...(i ? [num('Δ')] : [])])];
  return html`<section id="timing"><h2>Time profile: p95 response time</h2>
${themedChart('p95 response time per transaction (ms)', (p) => headlineBarsOption(heads, procs, p), { width: 760, height: 260 })}
${table(header, rows)}</section>`;
}

function tprochCompare(data: ReportData[]): Html {
  const res = data.map((d) => (isTprochResult(d.job.result) ? d.job.result : undefined));
  const base = res[0];
  const rows = data.map((d, i): Cell[] => {
    const r = res[i];
    return [legendName(d, i), html`<span class="mono">${d.job.id}</span>`, engineName(d.job.engine), d.job.status, r?.mode ?? '', num(r ? String(r.scaleFactor) : ''), num(int(r?.streams)), num(fixed(r?.geomean, 5)), num(i ? pctChange(r?.geomean, base?.geomean) : ''), num(fixed(r?.qphh, 1)), num(fixed(r?.elapsedSeconds, 1))];
  });
  // Each job's first stream (the power stream in a power test).
  const bars = data.map((d, i) => {
    const r = res[i];
    const s = r ? streamsOf(r)[0] : undefined;
    return { name: legendName(d, i), seconds: QUERIES.map((q) => (r && s !== undefined ? (queryTime(r.queries, s, q)?.seconds ?? null) : null)) };
  });
  const heads = data.map((d, i) => ({ name: legendName(d, i), values: { 'geomean (s)': res[i]?.geomean } }));
  return html`<section id="headline"><h2>Result</h2>
${themedChart('Geometric mean of query times (s, lower is better)', (p) => headlineBarsOption(heads, ['geomean (s)'], p), { width: 760, height: 220 })}
${table(['job', 'id', 'engine', 'status', 'mode', num('SF'), num('streams'), num('geomean s'), num('Δ'), num('QphH'), num('elapsed s')], rows)}
${themedChart('Seconds per query (first stream of each job)', (p) => queryBarsOption(bars, p))}</section>`;
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
