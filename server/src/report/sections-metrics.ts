import type { AshReport } from '@sledge/protocol';
import type { ReportData } from './data.js';
import { html, type Html } from './escape.js';
import { fixed, int } from './format.js';
import { ashOption, cpuOption } from './metric-charts.js';
import { themedChart } from './svg.js';
import { num, table } from './tables.js';
import { jobEnd, phaseBands, since } from './timeline.js';

const TOP = 10;
const SQL_CHARS = 300;
const MAX_CPU_SOURCES = 4;

/** Active session history: load by wait class over time, top wait events, top SQL, and what the sampler could not do. */
export function ashSection(d: ReportData, t0: number): Html | '' {
  const ash = d.ash;
  if (!ash) return '';
  const status = samplerStatus(ash, (name) => name === 'ash');
  const left = leftOut(ash);
  if (!ash.series.length) return status || left ? html`<section id="ash"><h2>Active session history</h2><p class="muted">No active sessions were sampled.</p>${left}${status}</section>` : '';
  const chart = themedChart('Average active sessions by wait class', (p) => ashOption(ash, since(t0), phaseBands(d, t0, p), jobEnd(d, t0), p));
  return html`<section id="ash"><h2>Active session history</h2>${chart}${ashSummary(ash)}${left}${status}</section>`;
}

/** What a report leaves out of a job's ASH (ash-visibility.ts): other databases' and users' sessions. */
function leftOut(ash: AshReport): Html | '' {
  if (!ash.hidden) return '';
  return html`<p class="muted" data-ash-hidden="${String(ash.hidden)}">${int(ash.hidden)} samples of sessions outside the target database and its roles are left out of this report; the job's page shows them to authenticated viewers.</p>`;
}

function ashSummary(ash: AshReport): Html {
  // Every bucket has the same width, so the classes' shares of the summed load are their shares of the samples.
  const byClass = new Map<string, number>();
  for (const b of ash.series) for (const [c, v] of Object.entries(b.aas)) byClass.set(c, (byClass.get(c) ?? 0) + v);
  const total = [...byClass.values()].reduce((a, b) => a + b, 0);
  const classes = [...byClass.entries()].sort((a, b) => b[1] - a[1]).map(([c, v]): [string, number] => [c, total > 0 ? (v / total) * 100 : 0]);
  return html`<div class="cols">
<div><h3>Wait classes</h3>${table(['wait class', num('% of samples')], classes.map(([c, pct]) => [c, num(fixed(pct, 1))]))}</div>
<div><h3>Top wait events</h3>${table(['event', 'class', num('AAS'), num('%')], ash.topEvents.slice(0, TOP).map((e) => [e.event, e.waitClass, num(fixed(e.aas, 3)), num(fixed(e.pct, 1))]))}</div>
</div>
${ash.topSql.length ? html`<h3>Top SQL</h3>${table(['SQL id', 'statement', num('AAS'), num('%')], ash.topSql.slice(0, TOP).map((q) => [q.sqlId, html`<span class="sql mono">${q.sql.length > SQL_CHARS ? `${q.sql.slice(0, SQL_CHARS)}…` : q.sql}</span>`, num(fixed(q.aas, 3)), num(fixed(q.pct, 1))]))}` : ''}`;
}

/** The samplers (ash, cpu:<label>) that could not sample, with why and what to grant or start. */
function samplerStatus(ash: AshReport | null, which: (sampler: string) => boolean): Html | '' {
  const rows = (ash?.status ?? []).filter((s) => !s.ok && which(s.sampler));
  if (!rows.length) return '';
  return html`<h3>Sampling not available</h3>${table(['sampler', 'reason', 'fix'], rows.map((s) => [s.sampler, s.reason ?? '', s.fix ?? '']))}`;
}

/** CPU of each host with an agent: usr/sys/iowait over time, and the means. */
export function cpuSection(d: ReportData, t0: number): Html | '' {
  if (!d.cpu.length) {
    const status = samplerStatus(d.ash, (name) => name.startsWith('cpu'));
    return status ? html`<section id="cpu"><h2>CPU</h2><p class="muted">No CPU samples were recorded.</p>${status}</section>` : '';
  }
  const sources = d.cpu.slice(0, MAX_CPU_SOURCES);
  const t = since(t0);
  const end = jobEnd(d, t0);
  const charts = sources.map((c) => themedChart(`CPU ${c.source}${c.cpuCount ? ` (${c.cpuCount} CPUs)` : ''}, % busy`, (p) => cpuOption(c, t, end, p), { width: 760, height: 220 }));
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
  const rows = d.cpu.map((c) => [
    c.source,
    c.cpuModel ?? '',
    num(c.cpuCount ? int(c.cpuCount) : ''),
    num(int(c.samples.length)),
    num(fixed(mean(c.samples.map((s) => s.usr)), 1)),
    num(fixed(mean(c.samples.map((s) => s.sys)), 1)),
    num(fixed(mean(c.samples.map((s) => s.iowait)), 1)),
    num(fixed(mean(c.samples.map((s) => s.idle)), 1)),
  ]);
  return html`<section id="cpu"><h2>CPU</h2>${charts}${table(['agent', 'model', num('CPUs'), num('samples'), num('usr %'), num('sys %'), num('iowait %'), num('idle %')], rows)}</section>`;
}
