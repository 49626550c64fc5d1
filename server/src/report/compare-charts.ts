import type { EChartsOption } from 'echarts';
import type { Palette } from './palette.js';
import { ms } from './format.js';
import { GRID, categoryAxis, elapsedAxis, legend, line, valueAxis, type Point } from './chart-common.js';

export interface Headline {
  name: string;
  values: Record<string, number | undefined>;
}

/** Grouped bars: one group per metric (NOPM, TPM), one bar per job. */
export function headlineBarsOption(jobs: readonly Headline[], metrics: readonly string[], p: Palette): EChartsOption {
  return {
    legend: legend(p),
    grid: { ...GRID, bottom: 28 },
    xAxis: categoryAxis(p, [...metrics]),
    yAxis: valueAxis(p),
    series: jobs.map((j, i) => ({
      name: j.name,
      type: 'bar',
      barMaxWidth: 48,
      color: p.series[i % p.series.length],
      label: { show: jobs.length <= 4, position: 'top', color: p.text, fontSize: 10, formatter: (x: { value: unknown }) => ms(Number(x.value)) },
      data: metrics.map((m) => j.values[m] ?? null),
    })) as EChartsOption['series'],
  };
}

export interface Timeline {
  name: string;
  points: Point[];
}

/** Overlaid timelines, each on its own job's elapsed time. */
export function overlayOption(lines: readonly Timeline[], yName: string, p: Palette): EChartsOption {
  return {
    legend: legend(p),
    grid: GRID,
    xAxis: elapsedAxis(p),
    yAxis: valueAxis(p, yName),
    series: lines.map((l, i) => ({ name: l.name, data: l.points, color: p.series[i % p.series.length], ...line(l.points.length) })) as EChartsOption['series'],
  };
}
