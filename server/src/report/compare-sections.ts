import type { ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { ms, pctChange } from './format.js';
import { engineName } from './sections-job.js';
import { headlineBarsOption } from './compare-charts.js';
import { themedChart } from './svg.js';
import { num, table, type Cell } from './tables.js';
import { workloadReport } from '../workloads/registry.js';

/** A job's name in legends: its label, else engine, VUs (as its workload counts them) and the end of its id. */
export const legendName = (d: ReportData, i: number): string => `${i + 1}. ${d.job.label ?? `${engineName(d.job.engine)} ${workloadReport(d.job.workload)?.vus?.(d.job) ?? '?'} VU …${d.job.id.slice(-8)}`}`;

/** The jobs' p95 response time per time-profile row (any workload that keeps a time profile). */
export function timingCompare(data: ReportData[]): Html | '' {
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
