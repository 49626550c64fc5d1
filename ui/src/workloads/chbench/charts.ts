import type { ChbenchQueryStats } from '@sledge/protocol';
import { base, grid, legend, lineStyle, timeAxis, tooltip, valueAxis, zoom } from '../../charts/options/common.js';
import type { ChartPalette } from '../../charts/options/palette.js';
import type { BarSeriesOption, ChartOption, LineSeriesOption, TimeRange } from '../../charts/options/types.js';
import { opColorIn } from '../tproch/ops.js';
import type { StreamProgress } from './analytic.js';

const secText = (s: number) => `${s.toFixed(s < 10 ? 3 : 1)} s`;

/**
 * Analytic queries completed per stream over time, a step line each, on the
 * run's shared time axis (the NOPM/TPM chart's: they line up and zoom together).
 */
export function completedOption(progress: readonly StreamProgress[], range: TimeRange | undefined, p: ChartPalette): ChartOption {
  const series: LineSeriesOption[] = progress.map((s, i) => {
    // Held to the end of the axis: the count stands until the next query ends.
    const last = s.points[s.points.length - 1];
    const data = range && last && range.max > last[0] ? [...s.points, [range.max, last[1]] as [number, number]] : s.points;
    return { id: `stream-${s.stream}`, name: `Stream ${s.stream}`, type: 'line', step: 'end', data, color: p.series[i % p.series.length], ...lineStyle(data.length), showSymbol: false, lineStyle: { width: 2 } };
  });
  return {
    ...base(p),
    tooltip: tooltip(p),
    legend: legend(p),
    grid: grid(),
    xAxis: timeAxis(p, range),
    yAxis: valueAxis(p, '', { minInterval: 1 }),
    dataZoom: zoom(),
    series,
  };
}

/**
 * Each analytic query's mean time over its executions (Q1..Q22, one bar in
 * the query's colour), min and max in the tooltip, the geometric mean as a
 * dashed line when known. A query with only failed executions has no bar.
 */
export function queryMeansOption(stats: readonly ChbenchQueryStats[], p: ChartPalette, geomean?: number): ChartOption {
  const cats = Array.from({ length: 22 }, (_, i) => `Q${i + 1}`);
  const by = new Map(stats.map((s) => [s.query, s]));
  const data = cats.map((_, i) => {
    const s = by.get(i + 1);
    return s && s.count > 0 ? { value: s.meanSeconds, itemStyle: { color: opColorIn(`q${i + 1}`, p.mode) } } : null;
  });
  const series: BarSeriesOption = {
    type: 'bar',
    name: 'mean seconds',
    data,
    barMaxWidth: 28,
    ...(geomean !== undefined && geomean > 0
      ? { markLine: { symbol: 'none', silent: true, lineStyle: { type: 'dashed', color: p.text }, label: { formatter: `geomean ${geomean.toFixed(5)} s`, color: p.text, position: 'insideEndTop' }, data: [{ yAxis: geomean }] } }
      : {}),
  };
  return {
    ...base(p),
    tooltip: {
      ...tooltip(p, 'axis'),
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const first = (Array.isArray(params) ? params[0] : params) as { dataIndex: number } | undefined;
        const s = first ? by.get(first.dataIndex + 1) : undefined;
        if (!first) return '';
        if (!s) return `Q${first.dataIndex + 1}: not run`;
        return `Q${s.query}: ${s.count} run${s.count === 1 ? '' : 's'}${s.errors ? `, ${s.errors} failed` : ''}<br/>mean ${secText(s.meanSeconds)} · min ${secText(s.minSeconds)} · max ${secText(s.maxSeconds)}`;
      },
    },
    grid: { left: 56, right: 24, top: 24, bottom: 32 },
    xAxis: { type: 'category', data: cats, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted, interval: 'auto', hideOverlap: true, fontSize: 10 } },
    yAxis: valueAxis(p, 'seconds'),
    series: [series],
  };
}
