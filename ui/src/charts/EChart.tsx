import { useEffect, useRef } from 'react';
import { echarts } from './echarts.js';
import type { ChartOption } from './options/types.js';

export interface EChartProps {
  option: ChartOption;
  /** Charts with the same group share tooltips and zoom (one time axis for the page). */
  group?: string;
  height?: number;
  /** Accessible name of the chart. */
  label: string;
  testId?: string;
}

/** Points fed to the chart, exposed as data-points so tests can watch a live chart grow. */
function countPoints(option: ChartOption): number {
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  let n = 0;
  for (const s of series) {
    const d = (s as { data?: unknown }).data;
    if (Array.isArray(d)) n += d.length;
  }
  return n;
}

export function EChart({ option, group, height = 260, label, testId }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);

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
    if (!c || !group) return;
    c.group = group;
    echarts.connect(group);
  }, [group]);

  useEffect(() => {
    // Merge (keeps zoom and legend selections across live updates); series are replaced by id.
    chart.current?.setOption(option, { replaceMerge: ['series'], lazyUpdate: true });
  }, [option]);

  return <div ref={el} className="chart" style={{ height }} role="img" aria-label={label} data-testid={testId} data-points={countPoints(option)} />;
}
