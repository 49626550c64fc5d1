import type { JobStore, ProfilePoint } from '@sledge/jobstore';
import { isTproccResult } from '@sledge/protocol';
import type { EChartsOption } from 'echarts';
import { reportData } from './data.js';
import { GRID, categoryAxis, legend, valueAxis } from './chart-common.js';
import { html, type Html } from './escape.js';
import { page } from './page.js';
import type { Palette } from './palette.js';
import { engineName, jobHeading, resultSection, workloadName } from './sections-job.js';
import { cpuSection } from './sections-metrics.js';
import { throughputSection, timingSection } from './sections-run.js';
import { themedChart } from './svg.js';
import { jobStart } from './timeline.js';
import { workloadReport } from '../workloads/index.js';

/** The chart types of HammerDB's `jobs <id> getchart <type>` (profile takes a performance profile id). */
export const CHART_TYPES = ['result', 'timing', 'tcount', 'metrics', 'profile'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** A chart page, or what the job lacks for it (HammerDB's "Jobid has no ..." words). */
export type ChartPage = { html: string } | { missing: string };

/** NOPM and TPM as two bars (HammerDB's TPROC-C result chart). */
function resultBars(nopm: number, tpm: number, label: string, p: Palette): EChartsOption {
  return {
    legend: legend(p),
    grid: GRID,
    xAxis: categoryAxis(p, [label]),
    yAxis: valueAxis(p, 'Transactions'),
    series: [
      { name: 'NOPM', type: 'bar', data: [nopm], color: p.nopm, barMaxWidth: 80 },
      { name: 'TPM', type: 'bar', data: [tpm], color: p.tpm, barMaxWidth: 80 },
    ],
  };
}

/**
 * One chart of a job as a self-contained HTML page (inline SVG, loads nothing),
 * the page `jobs <id> getchart <type>` returns: result (TPROC-C: NOPM and TPM
 * bars; TPROC-H: its figures), timing (the time profile; TPROC-H: query times),
 * tcount (the transaction counter over time), metrics (CPU of the agents).
 * Throws SLEDGE_E_NOT_FOUND for an unknown job.
 */
export function renderJobChart(store: JobStore, jobId: string, chart: Exclude<ChartType, 'profile'>): ChartPage {
  const d = reportData(store, jobId);
  const { job } = d;
  const t0 = jobStart(d);
  const db = engineName(job.engine);
  const wl = workloadName(job.workload);
  const report = workloadReport(job.workload);
  let title: string;
  let body: Html | '';
  let missing: string;
  switch (chart) {
    case 'result': {
      title = `${db} ${wl} Result ${job.id}`;
      missing = 'test result';
      const r = job.result;
      const figures = report?.figures(job);
      if (isTproccResult(r)) {
        body = themedChart(title, (p) => resultBars(r.nopm, r.tpm, `${db} ${r.activeVus} VU`, p));
      } else body = figures?.stats.length ? resultSection(job, figures) : '';
      break;
    }
    case 'timing': {
      title = `${db} ${wl} Response Times ${job.id}`;
      missing = 'timing data';
      body = timingSection(d) || (report?.sections?.(d) ?? []).find((s) => s !== '') || '';
      break;
    }
    case 'tcount': {
      title = `${db} ${wl} Transaction Count ${job.id}`;
      missing = 'transaction counter data';
      body = throughputSection(d, t0);
      break;
    }
    case 'metrics': {
      const first = d.cpu[0];
      title = `${first?.cpuCount ? `${first.cpuCount} ` : ''}${first?.cpuModel ?? 'Generic CPU'} ${job.id}`;
      missing = 'metrics data';
      body = d.cpu.length ? cpuSection(d, t0) : '';
      break;
    }
  }
  if (body === '') return { missing };
  return { html: page(title, jobHeading(job), [body]) };
}

/** NOPM and TPM against active VUs, one point per run of the profile (HammerDB's performance profile chart). */
function profileLines(points: readonly ProfilePoint[], p: Palette): EChartsOption {
  const by = [...points].sort((a, b) => a.activeVus - b.activeVus);
  return {
    legend: legend(p),
    grid: GRID,
    xAxis: { type: 'value', min: 0, name: 'Active VU', nameLocation: 'middle', nameGap: 26, nameTextStyle: { color: p.muted, fontSize: 11 }, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted }, splitLine: { show: false } },
    yAxis: valueAxis(p, 'Transactions'),
    series: [
      { name: 'NOPM', type: 'line', data: by.map((x) => [x.activeVus, x.nopm]), color: p.nopm, showSymbol: true },
      { name: 'TPM', type: 'line', data: by.map((x) => [x.activeVus, x.tpm]), color: p.tpm, showSymbol: true },
    ],
  };
}

/** Performance profile `profileId`'s chart (getchart profile): its runs' NOPM and TPM by active VUs; missing below 2 runs. */
export function renderProfileChart(store: JobStore, profileId: number): ChartPage {
  const points = store.profileJobs(profileId);
  if (points.length < 2) return { missing: 'performance profile data' };
  const title = `${engineName(points[0]!.engine)} Performance Profile ${profileId}`;
  return { html: page(title, html`<header class="top"><h1>${title}</h1></header>`, [html`<section id="profile">${themedChart(title, (p) => profileLines(points, p))}</section>`]) };
}

export const isChartType = (s: string): s is ChartType => (CHART_TYPES as readonly string[]).includes(s);
