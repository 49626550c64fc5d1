import type { ChartOption, TimeRange } from './types.js';
import type { ChartPalette } from './palette.js';

/** Above this many points per series, symbols are hidden and LTTB sampling is used. */
export const DENSE_POINTS = 120;

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM:SS in local time. */
export function clock(ts: number): string {
  const d = new Date(ts);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Seconds as m:ss or h:mm:ss. */
export function elapsed(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${+(v / 1e9).toFixed(1)}G`;
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(+v.toFixed(2));
}

export function base(p: ChartPalette): Pick<ChartOption, 'backgroundColor' | 'animation' | 'textStyle' | 'aria'> {
  return { backgroundColor: 'transparent', animation: false, textStyle: { color: p.text }, aria: { enabled: true } };
}

export function tooltip(p: ChartPalette, trigger: 'axis' | 'item' = 'axis'): ChartOption['tooltip'] {
  return {
    trigger,
    backgroundColor: p.tooltipBg,
    borderColor: p.tooltipBorder,
    textStyle: { color: p.text },
    ...(trigger === 'axis' ? { axisPointer: { type: 'line' as const } } : {}),
  };
}

export function legend(p: ChartPalette, names?: string[]): ChartOption['legend'] {
  return { top: 0, type: 'scroll', itemWidth: 14, itemHeight: 12, itemGap: 6, textStyle: { color: p.text, fontSize: 11 }, pageTextStyle: { color: p.muted }, ...(names ? { data: names } : {}) };
}

export function grid(): ChartOption['grid'] {
  return { left: 56, right: 24, top: 36, bottom: 36 };
}

/** The shared time x-axis: every chart of a job uses the same min and max so they line up. */
export function timeAxis(p: ChartPalette, range: TimeRange | undefined): ChartOption['xAxis'] {
  return {
    type: 'time',
    ...(range ? { min: range.min, max: range.max } : {}),
    axisLine: { lineStyle: { color: p.axisLine } },
    axisLabel: { color: p.muted, formatter: (v: number) => clock(v), hideOverlap: true },
    splitLine: { show: false },
  };
}

export function valueAxis(p: ChartPalette, name: string, extra: Record<string, unknown> = {}): ChartOption['yAxis'] {
  return {
    type: 'value',
    name,
    nameTextStyle: { color: p.muted, align: 'left' },
    axisLine: { show: false },
    axisLabel: { color: p.muted, formatter: (v: number) => compact(v) },
    splitLine: { lineStyle: { color: p.splitLine } },
    ...extra,
  };
}

/** Zoom by wheel/drag on the x axis; charts in the same group zoom together. */
export function zoom(): ChartOption['dataZoom'] {
  return [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }];
}

/** Line series settings that keep 7,200-point series fast. */
export function lineStyle(points: number): { showSymbol: boolean; sampling?: 'lttb'; symbolSize: number; large?: boolean } {
  return points > DENSE_POINTS ? { showSymbol: false, sampling: 'lttb', symbolSize: 4 } : { showSymbol: true, symbolSize: 5 };
}
