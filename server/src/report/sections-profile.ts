import type { JobStore } from '@sledge/jobstore';
import { SledgeError, type Job, type ProfileScalability } from '@sledge/protocol';
import type { EChartsOption } from 'echarts';
import { profileScalability } from '../engine/scalability.js';
import { GRID, legend, valueAxis, type Point } from './chart-common.js';
import { html, type Html } from './escape.js';
import { fixed, int } from './format.js';
import type { Palette } from './palette.js';
import { themedChart } from './svg.js';
import { num, table } from './tables.js';

/** Measured throughput against active VUs, the USL curve, its 95% band and the peak (docs/scalability.md). */
function scalabilityChart(s: ProfileScalability, p: Palette): EChartsOption {
  const unit = s.metric.toUpperCase();
  const fit = s.fit;
  const banded = fit?.curve.filter((c) => c.lo !== undefined && c.hi !== undefined) ?? [];
  const series: Record<string, unknown>[] = [
    { name: `measured ${unit}`, type: 'line', data: s.steps.map((x): Point => [x.vus, x[s.metric]]), color: p.nopm, showSymbol: true, symbolSize: 8, lineStyle: { width: 0 }, z: 5 },
  ];
  if (banded.length) {
    series.push(
      { name: '95% band', type: 'line', stack: 'band', data: banded.map((c): Point => [c.n, c.lo!]), showSymbol: false, lineStyle: { opacity: 0 }, color: p.muted },
      { name: '95% band', type: 'line', stack: 'band', data: banded.map((c): Point => [c.n, c.hi! - c.lo!]), showSymbol: false, lineStyle: { opacity: 0 }, areaStyle: { color: p.muted, opacity: 0.2 }, color: p.muted },
    );
  }
  if (fit) {
    series.push({
      name: 'USL fit',
      type: 'line',
      data: fit.curve.map((c): Point => [c.n, c.x]),
      showSymbol: false,
      color: p.tpm,
      lineStyle: { width: 2, type: 'dashed' },
      ...(fit.peak ? { markLine: { symbol: 'none', silent: true, label: { formatter: `peak ${fit.peak.n.toFixed(1)} VUs`, color: p.muted, fontSize: 10 }, lineStyle: { color: p.muted, type: 'dotted' }, data: [{ xAxis: fit.peak.n }] } } : {}),
    });
  }
  return {
    legend: { ...(legend(p) as object), data: [`measured ${unit}`, ...(fit ? ['USL fit'] : []), ...(banded.length ? ['95% band'] : [])] },
    grid: GRID,
    xAxis: { type: 'value', min: 0, name: 'active VUs', nameLocation: 'middle', nameGap: 26, nameTextStyle: { color: p.muted, fontSize: 11 }, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted }, splitLine: { show: false } },
    yAxis: valueAxis(p, unit),
    series: series as EChartsOption['series'],
  };
}

/**
 * The scalability of the job's performance profile, when the job belongs to
 * one with completed runs at 3 or more VU counts: the USL fit, the knee and
 * the waits that grew, with the ASH a report may show (the 'public' view).
 */
export function scalabilitySection(store: JobStore, job: Job): Html | '' {
  if (!job.profileId || job.type !== 'run') return '';
  let s: ProfileScalability;
  try {
    s = profileScalability(store, job.profileId, 'public');
  } catch (e) {
    // Too few VU counts yet (409), or this job's profile has no completed run (404): nothing to explain.
    if (e instanceof SledgeError && (e.code === 'SLEDGE_E_CONFLICT' || e.code === 'SLEDGE_E_NOT_FOUND')) return '';
    throw e;
  }
  const rows = s.steps.map((st, i) => [
    num(int(st.vus)),
    num(int(st[s.metric])),
    num(st.latencyMs !== undefined ? fixed(st.latencyMs, 2) : '–'),
    num(st.aas !== undefined ? fixed(st.aas, 2) : '–'),
    num(st.serverCpuPct !== undefined ? fixed(st.serverCpuPct, 1) : '–'),
    st.waits
      .filter((w) => w.kind === 'event')
      .slice(0, 3)
      .map((w) => `${w.name === w.waitClass ? w.name : `${w.waitClass}:${w.name}`} ${fixed(w.pct, 1)}%`)
      .join(', '),
    i === 0 ? '' : (s.waitGrowth[i - 1]?.grew ?? []).map((g) => `${g.kind === 'event' ? `${g.waitClass}:${g.name}` : g.name} +${fixed(g.deltaPct, 1)}`).join(', '),
  ]);
  return html`<section id="scalability"><h2>Scalability of profile ${s.profileId}</h2>
<p>${s.summary}</p>
${themedChart(`Profile ${s.profileId}: measured ${s.metric.toUpperCase()} against active VUs, the USL fit${s.fit?.dof ? ' and its 95% band' : ''}`, (p) => scalabilityChart(s, p))}
${table([num('VUs'), num(s.metric.toUpperCase()), num(`${s.latencyMetric} ms`), num('active sessions'), num('server CPU %'), 'top waits', 'grew most since the previous step'], rows)}</section>`;
}
