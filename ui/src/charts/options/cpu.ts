import type { CpuSample } from '@sledge/protocol';
import { allCpu, type HeatStrip } from '../../metrics/cpu.js';
import type { ChartPalette, CpuPart } from './palette.js';
import type { ChartOption, CustomSeriesOption, LineSeriesOption, Point, TimeRange } from './types.js';
import { base, clock, legend, lineStyle, timeAxis, tooltip, valueAxis } from './common.js';
import { METRICS_GRID } from './ash.js';

export const CPU_PARTS: readonly CpuPart[] = ['usr', 'sys', 'iowait', 'irq', 'soft', 'steal'];

/** A brushed range drawn as a band on the CPU charts, so they show what the ASH selection covers. */
function selectionBand(selection: readonly [number, number] | null, p: ChartPalette): Pick<LineSeriesOption, 'markArea'> {
  if (!selection) return {};
  return {
    markArea: {
      silent: true,
      itemStyle: { color: p.mode === 'dark' ? 'rgba(96,165,250,0.14)' : 'rgba(37,99,235,0.08)', borderColor: p.nopm, borderWidth: 1 },
      data: [[{ xAxis: selection[0] }, { xAxis: selection[1] }]] as never,
    },
  };
}

export interface CpuLinesInput {
  samples: readonly CpuSample[];
  range: TimeRange | undefined;
  palette: ChartPalette;
  selection?: readonly [number, number] | null;
}

/** All-CPU time by kind (usr, sys, iowait, irq, soft, steal), % of the interval, stacked so the top edge is % busy. */
export function cpuLinesOption({ samples, range, palette: p, selection = null }: CpuLinesInput): ChartOption {
  const all = samples.map((s) => [s.ts, allCpu(s)] as const);
  const style = lineStyle(all.length);
  const series: LineSeriesOption[] = CPU_PARTS.map((k, i) => ({
    id: `cpu-${k}`,
    name: k,
    type: 'line',
    stack: 'cpu',
    data: all.map(([ts, l]): Point => [ts, Math.round(l[k] * 10) / 10]),
    color: p.cpu[k],
    areaStyle: { opacity: 0.3 },
    ...style,
    showSymbol: false,
    symbol: 'none',
    lineStyle: { width: 1.2 },
    ...(i === 0 ? selectionBand(selection, p) : {}),
  }));
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? `${v.toFixed(1)}%` : String(v)) },
    legend: legend(p, [...CPU_PARTS]),
    grid: { ...METRICS_GRID, top: 32, bottom: 26 },
    xAxis: timeAxis(p, range),
    yAxis: valueAxis(p, '% CPU', { min: 0, max: 100, interval: 25 }),
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none', zoomOnMouseWheel: true, moveOnMouseMove: false, moveOnMouseWheel: false }],
    series,
  };
}

export interface CpuHeatInput {
  strip: HeatStrip;
  range: TimeRange | undefined;
  palette: ChartPalette;
}

/** Height in px of a heat strip with n cores. */
export const heatHeight = (n: number): number => 44 + Math.max(1, n) * Math.max(10, Math.min(18, Math.round(180 / Math.max(1, n))));

/**
 * Per-core % busy as a strip of cells (cores x time) on the same time axis as
 * the load chart: a custom series, since ECharts' heatmap needs a category x
 * axis and this one must be the shared time axis.
 */
export function cpuHeatOption({ strip, range, palette: p }: CpuHeatInput): ChartOption {
  const series: CustomSeriesOption = {
    id: 'heat',
    name: '% busy',
    type: 'custom',
    // Cells of samples taken just before the window starts must not spill over the core labels.
    clip: true,
    data: strip.cells,
    encode: { x: [0, 3], y: 1, tooltip: 2 },
    renderItem: (_params, api) => {
      const core = api.value(1) as number;
      const [x0, yc] = api.coord([api.value(0) as number, core]) as [number, number];
      const [x1] = api.coord([api.value(3) as number, core]) as [number, number];
      const h = (api.size?.([0, 1]) as number[] | undefined)?.[1] ?? 12;
      return {
        type: 'rect',
        shape: { x: x0, y: yc - h / 2 + 0.5, width: Math.max(1, x1 - x0 + 0.3), height: Math.max(1, h - 1) },
        style: { fill: api.visual('color') as string },
      };
    },
  };
  return {
    ...base(p),
    tooltip: {
      ...tooltip(p, 'item'),
      formatter: (params: unknown) => {
        const v = (params as { value: [number, number, number, number] }).value;
        return `${strip.cores[v[1]] ?? ''} · ${clock(v[0])}–${clock(v[3])}<br/><b>${v[2]}%</b> busy`;
      },
    },
    grid: { ...METRICS_GRID, top: 26, bottom: 18 },
    xAxis: { ...(timeAxis(p, range) as object), axisLabel: { show: false }, axisTick: { show: false } } as ChartOption['xAxis'],
    yAxis: {
      type: 'category',
      data: strip.cores,
      inverse: true,
      axisLabel: { color: p.muted, fontSize: 10, interval: strip.cores.length > 16 ? Math.ceil(strip.cores.length / 16) - 1 : 0 },
      axisLine: { show: false },
      axisTick: { show: false },
      splitLine: { show: false },
    },
    visualMap: {
      type: 'continuous',
      min: 0,
      max: 100,
      dimension: 2,
      seriesIndex: 0,
      orient: 'horizontal',
      right: METRICS_GRID.right,
      top: 0,
      itemWidth: 10,
      itemHeight: 110,
      calculable: false,
      text: ['100% busy', '0%'],
      textStyle: { color: p.muted, fontSize: 10 },
      inRange: { color: p.heat },
    },
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none', zoomOnMouseWheel: true, moveOnMouseMove: false, moveOnMouseWheel: false }],
    series: [series],
  };
}
