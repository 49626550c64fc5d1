import type { AshSeries } from '../../metrics/ash.js';
import type { Phase } from '../../metrics/samples.js';
import { waitClassColor, type ChartPalette } from './palette.js';
import type { ChartOption, LineSeriesOption, Point, TimeRange } from './types.js';
import { base, clock, compact, legend, timeAxis, tooltip, valueAxis } from './common.js';

/**
 * Every metrics chart (load, SQL drilldown, CPU lines, per-core heat) uses
 * these margins so their time axes line up pixel for pixel.
 */
export const METRICS_GRID = { left: 64, right: 28 } as const;

/** Stacked series data: one point per bucket for every class, 0 where a class had no sample. */
export function stackedData(series: AshSeries, classes: readonly string[]): Record<string, Point[]> {
  const out: Record<string, Point[]> = Object.fromEntries(classes.map((c) => [c, [] as Point[]]));
  const { buckets, bucketMs } = series;
  if (!buckets.length) return out;
  let i = 0;
  // Walk the grid from the first to the last bucket so that every class has the same x values (stacks line up) and gaps read 0.
  const last = buckets[buckets.length - 1]!;
  for (let ts = buckets[0]!.ts; ts <= last.ts; ts += bucketMs) {
    const b = buckets[i]?.ts === ts ? buckets[i++]!.aas : undefined;
    for (const c of classes) out[c]!.push([ts, b?.[c] ?? 0]);
  }
  // A bucket stands for [ts, ts + bucketMs): close the last one so the chart reaches the end of sampling.
  for (const c of classes) out[c]!.push([last.ts + bucketMs, last.aas[c] ?? 0]);
  return out;
}

/** Phase label as shown on the axis: build phases without their "build: " prefix. */
export const phaseLabel = (l: string): string => l.replace(/^build: /, '');

/** The phase a time falls in (the last one that started at or before it). */
export function phaseAt(phases: readonly Phase[], ts: number): Phase | undefined {
  let hit: Phase | undefined;
  for (const p of phases) if (p.ts <= ts) hit = p;
  return hit;
}

/**
 * Phase bands and boundary lines on the time axis: one band per phase, from
 * its start to the next phase (the last one to `end`). Bands narrower than
 * 1/16 of the range carry no label so labels do not pile up.
 */
export function phaseSeries(phases: readonly Phase[], end: number, range: TimeRange | undefined, p: ChartPalette): LineSeriesOption {
  const sorted = [...phases].sort((a, b) => a.ts - b.ts);
  const span = range ? range.max - range.min : Math.max(1, end - (sorted[0]?.ts ?? end));
  const areas = sorted.map((ph, i) => {
    const to = sorted[i + 1]?.ts ?? end;
    const wide = (to - ph.ts) / span >= 1 / 16;
    return [
      { xAxis: ph.ts, name: wide ? phaseLabel(ph.label) : '', itemStyle: { color: i % 2 ? 'transparent' : p.phase } },
      { xAxis: Math.max(to, ph.ts) },
    ];
  });
  return {
    id: 'phases',
    name: 'phases',
    type: 'line',
    data: [],
    silent: true,
    tooltip: { show: false },
    markArea: {
      silent: true,
      // Above the plot, centred on its band, so the stacked areas never cover it.
      label: { show: true, position: 'top', color: p.muted, fontSize: 10, distance: 3 },
      data: areas as never,
    },
    markLine: {
      silent: true,
      symbol: ['none', 'none'],
      label: { show: false },
      lineStyle: { color: p.axisLine, type: 'dashed', width: 1 },
      data: sorted.map((ph) => ({ xAxis: ph.ts })),
    },
  };
}

export interface AshChartInput {
  series: AshSeries;
  /** Classes to draw, in stacking order (CPU first: it sits at the bottom). */
  classes: readonly string[];
  vcpus?: { count: number; label: string } | undefined;
  phases: readonly Phase[];
  /** Where the last phase band ends (job end, or now while live). */
  phaseEnd: number;
  range: TimeRange | undefined;
  palette: ChartPalette;
  /** Drag across the chart to select a time range (the main load chart). */
  brush?: boolean;
  height?: 'full' | 'small';
}

/** Average active sessions by wait class, stacked, with the vCPU line and the job's phases. */
export function ashOption({ series, classes, vcpus, phases, phaseEnd, range, palette: p, brush = false, height = 'full' }: AshChartInput): ChartOption {
  const data = stackedData(series, classes);
  const lines: LineSeriesOption[] = classes.map((c) => ({
    id: `ash-${c}`,
    name: c,
    type: 'line',
    stack: 'aas',
    data: data[c]!,
    color: waitClassColor(c, p),
    areaStyle: { opacity: 0.85 },
    lineStyle: { width: 0.5 },
    // A bucket's value holds until the next bucket: steps, not slopes between whole sessions.
    step: 'end',
    showSymbol: false,
    symbol: 'none',
    emphasis: { disabled: true },
  }));
  if (vcpus && vcpus.count > 0) {
    const xs = series.buckets.map((b) => b.ts);
    const x0 = range?.min ?? xs[0] ?? phaseEnd;
    const x1 = range?.max ?? xs[xs.length - 1] ?? phaseEnd;
    lines.push({
      id: 'vcpu',
      name: vcpus.label,
      type: 'line',
      data: [
        [x0, vcpus.count],
        [x1, vcpus.count],
      ],
      color: p.vcpu,
      lineStyle: { type: 'dashed', width: 1.5 },
      showSymbol: false,
      symbol: 'none',
      tooltip: { show: false },
      z: 5,
      emphasis: { disabled: true },
    });
  }
  if (phases.length && height === 'full') lines.push(phaseSeries(phases, phaseEnd, range, p));
  const names = [...classes, ...(vcpus && vcpus.count > 0 ? [vcpus.label] : [])];
  const option: ChartOption = {
    ...base(p),
    tooltip: {
      ...tooltip(p),
      formatter: (params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as { seriesName: string; value: Point; color: string }[];
        const ts = list[0]?.value[0];
        if (ts === undefined) return '';
        const ph = phaseAt(phases, ts);
        let total = 0;
        const rows = list
          .filter((x) => classes.includes(x.seriesName) && x.value[1] > 0)
          .map((x) => {
            total += x.value[1];
            return `<span style="display:inline-block;width:9px;height:9px;border-radius:2px;background:${x.color};margin-right:6px"></span>${x.seriesName} <b style="float:right;margin-left:16px">${compact(x.value[1])}</b>`;
          })
          .reverse();
        const head = `<b>${clock(ts)}</b>${ph ? ` · ${phaseLabel(ph.label)}` : ''}<br/>${compact(total)} active sessions${vcpus ? ` (${vcpus.count} vCPU)` : ''}`;
        return [head, ...rows].join('<br/>');
      },
    },
    legend: legend(p, names),
    grid: height === 'full' ? { ...METRICS_GRID, top: 48, bottom: 30 } : { ...METRICS_GRID, top: 28, bottom: 26 },
    xAxis: timeAxis(p, range),
    yAxis: valueAxis(p, height === 'full' ? '' : 'active sessions', { min: 0 }),
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none', zoomOnMouseWheel: true, moveOnMouseMove: false, moveOnMouseWheel: false }],
    series: lines,
  };
  if (brush) {
    option.brush = {
      id: 'range',
      xAxisIndex: 0,
      brushType: 'lineX',
      brushMode: 'single',
      transformable: true,
      removeOnClick: true,
      brushStyle: { color: p.mode === 'dark' ? 'rgba(96,165,250,0.18)' : 'rgba(37,99,235,0.12)', borderColor: p.nopm, borderWidth: 1 },
      outOfBrush: { colorAlpha: 0.3 },
    };
  }
  return option;
}

/** Points a load chart draws (for data-points): buckets x classes. */
export function ashPointCount(series: AshSeries, classes: readonly string[]): number {
  if (!series.buckets.length) return 0;
  const n = Math.round((series.buckets[series.buckets.length - 1]!.ts - series.buckets[0]!.ts) / series.bucketMs) + 2;
  return n * classes.length;
}
