import { isTprochResult, type TprochResult } from '@sledge/protocol';
import type { ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { fixed, int } from './format.js';
import { QUERIES, jobQueryBars, queryBarsOption, queryTime, streamName, streamsOf } from './tproch-charts.js';
import { themedChart } from './svg.js';
import { num, table, type Cell } from './tables.js';

/** TPROC-H: seconds per query per stream, the streams' geomeans and the refresh functions' times. */
export function tprochSection(d: ReportData): Html | '' {
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
