import type { EChartsOption } from 'echarts';
import type { Palette } from './palette.js';
import { compact, elapsed } from './format.js';

/** A point on an elapsed-seconds axis. */
export type Point = [number, number];

export function legend(p: Palette): EChartsOption['legend'] {
  return { top: 0, itemWidth: 14, itemHeight: 10, itemGap: 10, textStyle: { color: p.text, fontSize: 11 } };
}

export const GRID = { left: 64, right: 24, top: 34, bottom: 40 };

/** The x axis of a job's time charts: seconds since the job started, shown as m:ss. */
export function elapsedAxis(p: Palette, max?: number): EChartsOption['xAxis'] {
  return {
    type: 'value',
    min: 0,
    minInterval: 1,
    ...(max !== undefined ? { max } : {}),
    name: 'elapsed (m:ss)',
    nameLocation: 'middle',
    nameGap: 26,
    nameTextStyle: { color: p.muted, fontSize: 11 },
    axisLine: { lineStyle: { color: p.axisLine } },
    axisLabel: { color: p.muted, formatter: (v: number) => elapsed(v), hideOverlap: true },
    splitLine: { show: false },
  };
}

export function valueAxis(p: Palette, name = '', extra: Record<string, unknown> = {}): EChartsOption['yAxis'] {
  return {
    type: 'value',
    name,
    nameTextStyle: { color: p.muted, align: 'left', fontSize: 11 },
    axisLine: { show: false },
    axisLabel: { color: p.muted, formatter: (v: number) => compact(v) },
    splitLine: { lineStyle: { color: p.splitLine } },
    ...extra,
  };
}

export function categoryAxis(p: Palette, data: string[], extra: Record<string, unknown> = {}): EChartsOption['xAxis'] {
  return { type: 'category', data, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.text, fontSize: 11 }, ...extra };
}

/** Line series style for a time chart: symbols only while points are few. */
export function line(points: number): Record<string, unknown> {
  return { type: 'line', showSymbol: points <= 60, symbolSize: 4, lineStyle: { width: 2 } };
}

/** A phase band (rampup, measured window) on the elapsed axis, as markArea data. */
export interface Band {
  from: number;
  to: number;
  label: string;
  color: string;
}

export function bandsMarkArea(bands: readonly Band[], p: Palette): Record<string, unknown> {
  if (!bands.length) return {};
  return {
    markArea: {
      silent: true,
      label: { color: p.muted, fontSize: 10, position: 'insideTop' },
      data: bands.map((b) => [{ xAxis: b.from, name: b.label, itemStyle: { color: b.color } }, { xAxis: b.to }]),
    },
  };
}
