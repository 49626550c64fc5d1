import { isTprochResult, type Job, type TprochResult } from '@sledge/protocol';
import type { ReportData } from '../../report/data.js';
import { html, type Html } from '../../report/escape.js';
import { fixed, int, pctChange } from '../../report/format.js';
import { engineName } from '../../report/sections-job.js';
import { headlineBarsOption } from '../../report/compare-charts.js';
import { legendName } from '../../report/compare-sections.js';
import { themedChart } from '../../report/svg.js';
import { num, table, type Cell } from '../../report/tables.js';
import type { ResultFigures, WorkloadReport } from '../registry.js';
import { tprochArtifact } from './artifact.js';
import { QUERIES, jobQueryBars, queryBarsOption, queryTime, streamName, streamsOf } from './report-charts.js';

/** The geomean, mode and SF, streams, elapsed time, Sledge's scores (TPC-H formulas), failed queries; the scores' note. */
function figures(job: Job): ResultFigures | undefined {
  const r = job.result;
  if (!isTprochResult(r)) return undefined;
  const stats: ResultFigures['stats'] = [[fixed(r.geomean, 5), 'geomean (s)'], [`${r.mode}`, `SF ${r.scaleFactor}${r.standardScale ? '' : ' (non-standard)'}`], [int(r.streams), 'streams'], [fixed(r.elapsedSeconds, 1), 'elapsed seconds']];
  if (r.qphh !== undefined) stats.push([fixed(r.qphh, 1), "composite score per hour (Sledge's, TPC-H formula, not a TPC result)"]);
  if (r.powerAtSize !== undefined) stats.push([fixed(r.powerAtSize, 1), 'power score per hour']);
  if (r.throughputAtSize !== undefined) stats.push([fixed(r.throughputAtSize, 1), 'throughput score per hour']);
  if (r.powerSeconds !== undefined) stats.push([fixed(r.powerSeconds, 1), 'power test seconds']);
  if (r.throughputSeconds !== undefined) stats.push([fixed(r.throughputSeconds, 1), 'throughput test seconds']);
  if (r.errors) stats.push([int(r.errors), 'failed queries']);
  return { stats, ...(r.metricsNote ? { note: r.metricsNote } : {}) };
}

/** TPROC-H: seconds per query per stream, the streams' geomeans and the refresh functions' times. */
function tprochSection(d: ReportData): Html | '' {
  const r = d.job.result;
  if (!isTprochResult(r) || !r.queries.length) return '';
  return html`<section id="queries"><h2>Query times</h2>
${themedChart(`Seconds per query (${r.mode} test, SF ${r.scaleFactor})`, (p) => queryBarsOption(jobQueryBars(r), p))}
${queryTable(r)}${streamTable(r)}${refreshTable(r)}</section>`;
}

function queryTable(r: TprochResult): Html {
  const streams = streamsOf(r).slice(0, 8);
  const header: Cell[] = ['query', ...streams.flatMap((s) => [num(`${streamName(s)} s`), num('rows')])];
  const rows = QUERIES.map((q): Cell[] => [
    `Q${q}`,
    ...streams.flatMap((s) => {
      const x = queryTime(r.queries, s, q);
      if (!x) return [num(''), num('')];
      return [x.error ? html`<span class="bad" title="${x.error}">failed</span>` : num(fixed(x.seconds, 3)), num(x.error ? '' : int(x.rows))];
    }),
  ]);
  const more = streamsOf(r).length > streams.length ? html`<p class="muted">First 8 of ${streamsOf(r).length} streams; the export has all.</p>` : '';
  return html`<h3>Per query</h3>${table(header, rows)}${more}`;
}

function streamTable(r: TprochResult): Html | '' {
  if (!r.streamResults.length) return '';
  return html`<h3>Streams</h3>${table(
    ['stream', num('query sets'), num('seconds'), num('geomean s'), num('queries returning rows')],
    r.streamResults.map((s) => [streamName(s.stream), num(int(s.completedSets)), num(int(s.seconds)), num(fixed(s.geomean, 5)), num(int(s.queriesReturningRows))]),
  )}`;
}

function refreshTable(r: TprochResult): Html | '' {
  if (!r.refreshes.length) return '';
  return html`<h3>Refresh functions</h3>${table(
    ['update set', num('RF1 s'), num('RF2 s'), num('orders')],
    r.refreshes.map((x) => [String(x.update), num(fixed(x.rf1Seconds, 3)), num(fixed(x.rf2Seconds, 3)), num(int(x.orders))]),
  )}`;
}

/** A comparison: the geomeans, TPC-H figures and each job's first stream's query times. */
function compare(data: ReportData[]): Html {
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
${table(['job', 'id', 'engine', 'status', 'mode', num('SF'), num('streams'), num('geomean s'), num('Δ'), num('composite'), num('elapsed s')], rows)}
${themedChart('Seconds per query (first stream of each job)', (p) => queryBarsOption(bars, p))}</section>`;
}

/** TPROC-H's parts of the reports: its figures, the query-time section, a comparison of geomeans and query times; its v6 artifact. */
export const tprochReport: WorkloadReport = {
  figures,
  artifact: tprochArtifact,
  sections: (d) => [tprochSection(d)],
  compare: (data) => [compare(data)],
};
