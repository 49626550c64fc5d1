import type { TimingRow } from '@sledge/protocol';
import type { ChartPalette } from './palette.js';
import type { BoxplotSeriesOption, ChartOption } from './types.js';
import { base, compact, tooltip } from './common.js';

/** The summary rows (vu 0) in HammerDB's order: by share of time, largest first. */
export function summaryRows(rows: readonly TimingRow[]): TimingRow[] {
  return rows.filter((r) => r.vu === 0).sort((a, b) => b.ratioPct - a.ratioPct);
}

/**
 * Box plot of the time profile: box p25..p75, the median line, whiskers from
 * min to p99 (HammerDB v6 draws the same from its reservoir samples).
 */
export function boxplotOption(rows: readonly TimingRow[], p: ChartPalette): ChartOption {
  const summary = summaryRows(rows);
  const names = summary.map((r) => r.proc);
  const data = summary.map((r) => [r.minMs, r.p25Ms, r.p50Ms, r.p75Ms, r.p99Ms]);
  const series: BoxplotSeriesOption = {
    id: 'timing',
    name: 'response time',
    type: 'boxplot',
    data,
    itemStyle: { color: p.tooltipBg, borderColor: p.nopm, borderWidth: 1.5 },
    boxWidth: [10, 36],
  };
  return {
    ...base(p),
    tooltip: {
      ...tooltip(p, 'item'),
      formatter: (params: unknown) => {
        const x = params as { dataIndex: number };
        const r = summary[x.dataIndex];
        if (!r) return '';
        return [
          `<b>${r.proc}</b> (${r.calls} calls)`,
          `min ${compact(r.minMs)} ms`,
          `p25 ${compact(r.p25Ms)} ms`,
          `median ${compact(r.p50Ms)} ms`,
          `p75 ${compact(r.p75Ms)} ms`,
          `p99 ${compact(r.p99Ms)} ms`,
        ].join('<br/>');
      },
    },
    grid: { left: 80, right: 24, top: 16, bottom: 36 },
    xAxis: {
      type: 'log',
      name: 'ms (log)',
      nameLocation: 'middle',
      nameGap: 24,
      nameTextStyle: { color: p.muted },
      axisLabel: { color: p.muted, formatter: (v: number) => compact(v) },
      axisLine: { lineStyle: { color: p.axisLine } },
      splitLine: { lineStyle: { color: p.splitLine } },
    },
    yAxis: { type: 'category', data: names, inverse: true, axisLabel: { color: p.text }, axisLine: { lineStyle: { color: p.axisLine } } },
    series: [series],
  };
}
