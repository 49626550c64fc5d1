import { isChbenchResult, type Job } from '@sledge/protocol';
import { html, type Html } from '../../report/escape.js';
import { fixed, int } from '../../report/format.js';
import { legendName } from '../../report/compare-sections.js';
import type { ReportData } from '../../report/data.js';
import { num, table, type Cell } from '../../report/tables.js';
import type { ResultFigures, WorkloadReport } from '../registry.js';
import { tproccReport } from '../tprocc/report.js';

/** TPROC-C's figures and the analytic streams' (streams, queries in the window, queries per hour, geometric mean). */
function figures(job: Job): ResultFigures | undefined {
  const base = tproccReport.figures(job);
  const r = job.result;
  if (!base || !isChbenchResult(r)) return base;
  const a = r.analytic;
  base.stats.push([int(a.streams), 'analytic streams'], [int(a.completedQueries), 'analytic queries in the window'], [int(a.queriesPerHour), 'analytic queries / hour']);
  if (a.completedQueries > 0) base.stats.push([fixed(a.geomean, 3), 'geomean query s']);
  return base;
}

/** The 22 queries over the measured window: count, mean/min/max seconds, errors. */
function analyticSection(d: ReportData): Html | '' {
  const r = d.job.result;
  if (!isChbenchResult(r) || r.analytic.streams === 0) return '';
  const rows = r.analytic.perQuery.map((q): Cell[] => [`Q${q.query}`, num(int(q.count)), num(q.count ? fixed(q.meanSeconds, 3) : '-'), num(q.count ? fixed(q.minSeconds, 3) : '-'), num(q.count ? fixed(q.maxSeconds, 3) : '-'), num(int(q.errors))]);
  return html`<section id="analytic"><h2>Analytic queries (measured window)</h2>
<p>${r.analytic.streams} stream(s); ${r.analytic.completedQueries} queries started and ended inside the window, ${r.analytic.queriesPerHour} per hour; ${r.analytic.errors} failed.</p>
${table(['query', num('count'), num('mean s'), num('min s'), num('max s'), num('errors')], rows)}</section>`;
}

/** Compared runs: NOPM beside the analytic streams and their queries per hour (the interference). */
function interference(data: ReportData[]): Html | '' {
  const rows = data.map((d, i): Cell[] => {
    const r = d.job.result;
    const a = isChbenchResult(r) ? r.analytic : undefined;
    return [legendName(d, i), html`<span class="mono">${d.job.id}</span>`, num(int(a?.streams)), num(int(isChbenchResult(r) ? r.nopm : undefined)), num(int(a?.queriesPerHour)), num(a && a.completedQueries ? fixed(a.geomean, 3) : '-')];
  });
  return html`<section id="analytic-compare"><h2>Transactions and analytic streams</h2>
${table(['job', 'id', num('analytic streams'), num('NOPM'), num('analytic queries / hour'), num('geomean s')], rows)}</section>`;
}

/** CH-benCHmark's parts of the reports: TPROC-C's, plus the analytic streams'. No HammerDB v6 artifact: HammerDB has no CH-benCHmark. */
export const chbenchReport: WorkloadReport = {
  figures,
  vus: (job) => tproccReport.vus?.(job),
  sections: (d) => [analyticSection(d)],
  compare: (data) => [interference(data), ...(tproccReport.compare?.(data) ?? [])],
};
