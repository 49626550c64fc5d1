import type { ChartPalette } from './palette.js';
import type { ChartOption, LineSeriesOption, Point } from './types.js';
import { base, compact, elapsed, legend, lineStyle, tooltip, valueAxis } from './common.js';

export interface CompareSeries {
  /** Legend name, e.g. "6B02… PostgreSQL 4 VU". */
  name: string;
  /** Unix ms the job started (x = seconds since then). */
  start: number;
  points: readonly { ts: number; value: number }[];
}

/** Overlay several jobs' series on one elapsed-time axis (seconds since each job started). */
export function compareOption(series: readonly CompareSeries[], metric: string, p: ChartPalette): ChartOption {
  const lines: LineSeriesOption[] = series.map((s, i) => {
    const data: Point[] = s.points.map((x) => [(x.ts - s.start) / 1000, x.value]);
    return { id: `s${i}`, name: s.name, type: 'line', data, color: p.series[i % p.series.length], ...lineStyle(data.length), lineStyle: { width: 2 } };
  });
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? compact(v) : String(v)) },
    legend: legend(p),
    grid: { left: 56, right: 24, top: 36, bottom: 40 },
    xAxis: {
      type: 'value',
      name: 'elapsed',
      nameLocation: 'middle',
      nameGap: 26,
      nameTextStyle: { color: p.muted },
      min: 0,
      axisLabel: { color: p.muted, formatter: (v: number) => elapsed(v) },
      axisLine: { lineStyle: { color: p.axisLine } },
      splitLine: { show: false },
    },
    yAxis: valueAxis(p, metric),
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }],
    series: lines,
  };
}

export interface ProfilePointIn {
  activeVus: number;
  nopm: number;
  tpm: number;
}

/** HammerDB's performance profile: NOPM and TPM against active VUs (needs at least 2 points). */
export function profileOption(points: readonly ProfilePointIn[], tpmLabel: string, p: ChartPalette): ChartOption {
  const sorted = [...points].sort((a, b) => a.activeVus - b.activeVus);
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? compact(v) : String(v)) },
    legend: legend(p),
    grid: { left: 64, right: 24, top: 36, bottom: 40 },
    xAxis: {
      type: 'value',
      name: 'active VUs',
      nameLocation: 'middle',
      nameGap: 26,
      nameTextStyle: { color: p.muted },
      minInterval: 1,
      axisLabel: { color: p.muted },
      axisLine: { lineStyle: { color: p.axisLine } },
      splitLine: { show: false },
    },
    yAxis: valueAxis(p, 'per minute'),
    series: [
      { id: 'nopm', name: 'NOPM', type: 'line', data: sorted.map((x): Point => [x.activeVus, x.nopm]), color: p.nopm, showSymbol: true, symbolSize: 7, lineStyle: { width: 2 } },
      { id: 'tpm', name: tpmLabel, type: 'line', data: sorted.map((x): Point => [x.activeVus, x.tpm]), color: p.tpm, showSymbol: true, symbolSize: 7, lineStyle: { width: 2 } },
    ],
  };
}
