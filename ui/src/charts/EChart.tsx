import { useEffect, useRef } from 'react';
import { echarts } from './echarts.js';
import type { ChartOption } from './options/types.js';

export interface EChartProps {
  option: ChartOption;
  /** A light option merged over `option` (e.g. a legend selection) without resending the series. */
  overlay?: ChartOption | undefined;
  /** Charts with the same group share tooltips and zoom (one time axis for the page). */
  group?: string;
  height?: number;
  /** Accessible name of the chart. */
  label: string;
  testId?: string;
  /** ECharts events to listen to (e.g. brushEnd, click); the latest handlers are always used. */
  events?: Record<string, (params: unknown) => void>;
  /** Called with the chart after each option update (to re-apply interaction state such as a brush). */
  onUpdated?: (chart: EChartsType) => void;
  /** Extra data-* attributes for tests and assistive text. */
  data?: Record<string, string | number>;
}

export type EChartsType = ReturnType<typeof echarts.init>;

/** Points fed to the chart, exposed as data-points so tests can watch a live chart grow. */
function countPoints(option: ChartOption, overlay: ChartOption | undefined): number {
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  const selected = (overlay?.legend as { selected?: Record<string, boolean> } | undefined)?.selected ?? {};
  let n = 0;
  for (const s of series) {
    const { data, name } = s as { data?: unknown; name?: string };
    if (Array.isArray(data) && (name === undefined || selected[name] !== false)) n += data.length;
  }
  return n;
}

/** Series longer than this are handed to ECharts as a typed array. */
const TYPED_FROM = 500;

/**
 * ECharts parses array-of-tuples data point by point on every setOption
 * (also when only a legend changes); a Float64Array [x0, y0, x1, y1, ...] is
 * copied in bulk instead. Long [x, y] series are converted here, at the last
 * step, so the option builders stay plain and testable.
 */
export function packSeries(option: ChartOption): ChartOption {
  if (!Array.isArray(option.series)) return option;
  let changed = false;
  const series = option.series.map((s) => {
    const data = (s as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length < TYPED_FROM || !Array.isArray(data[0]) || (data[0] as unknown[]).length !== 2) return s;
    const packed = new Float64Array(data.length * 2);
    for (let i = 0; i < data.length; i++) {
      const p = data[i] as [number, number];
      packed[2 * i] = p[0];
      packed[2 * i + 1] = p[1];
    }
    changed = true;
    return { ...s, data: packed, dimensions: ['x', 'y'] } as unknown as typeof s;
  });
  return changed ? { ...option, series } : option;
}

export function EChart({ option, overlay, group, height = 260, label, testId, events, onUpdated, data }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const handlers = useRef(events);
  handlers.current = events;
  const updated = useRef(onUpdated);
  updated.current = onUpdated;
  const eventNames = Object.keys(events ?? {}).sort().join(',');

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const c = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(node);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c || !eventNames) return;
    const names = eventNames.split(',');
    const bound = names.map((n) => [n, (p: unknown) => handlers.current?.[n]?.(p)] as const);
    for (const [n, f] of bound) c.on(n, f);
    return () => {
      if (!c.isDisposed()) for (const [n, f] of bound) c.off(n, f);
    };
  }, [eventNames]);
  useEffect(() => {
    const c = chart.current;
    if (!c || !group) return;
    c.group = group;
    echarts.connect(group);
  }, [group]);

  useEffect(() => {
    // Merge (keeps zoom and legend selections across live updates); series are replaced by id.
    const c = chart.current;
    if (!c) return;
    c.setOption(packSeries(option), { replaceMerge: ['series'], lazyUpdate: true });
    if (overlay) c.setOption(overlay, { lazyUpdate: true });
    updated.current?.(c);
  }, [option]);

  useEffect(() => {
    if (overlay) chart.current?.setOption(overlay, { lazyUpdate: true });
  }, [overlay]);

  const attrs = Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, String(v)]));
  return <div ref={el} className="chart" style={{ height }} role="img" aria-label={label} data-testid={testId} data-points={countPoints(option, overlay)} {...attrs} />;
}
