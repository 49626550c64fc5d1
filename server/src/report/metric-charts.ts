import type { EChartsOption } from 'echarts';
import { WAIT_CLASSES, type AshReport } from '@sledge/protocol';
import type { CpuSeries } from './data.js';
import { waitClassColor, type Palette } from './palette.js';
import { GRID, bandsMarkArea, elapsedAxis, legend, valueAxis, type Band, type Point } from './chart-common.js';
import { downsample } from './format.js';

/** The wait classes an ASH report has load in, in the fixed stacking order (CPU at the bottom). */
export function ashClasses(ash: AshReport): string[] {
  const seen = new Set<string>();
  for (const b of ash.series) for (const [k, v] of Object.entries(b.aas)) if (v > 0) seen.add(k);
  return WAIT_CLASSES.filter((c) => seen.has(c));
}

/** Average active sessions by wait class over time, stacked; the host's vCPUs as a dashed line when known. */
export function ashOption(ash: AshReport, t: (ts: number) => number, bands: readonly Band[], end: number | undefined, p: Palette): EChartsOption {
  const classes = ashClasses(ash);
  const series: Record<string, unknown>[] = classes.map((cls, i) => ({
    name: cls,
    // Columns, one per sampling bucket: an area between whole-session counts would draw slopes that were never sampled.
    type: 'bar',
    stack: 'aas',
    barWidth: '92%',
    color: waitClassColor(cls, p),
    data: ash.series.map((b): Point => [t(b.ts), b.aas[cls] ?? 0]),
    ...(i === 0 ? bandsMarkArea(bands, p) : {}),
  }));
  if (ash.vcpus !== undefined && ash.series.length) {
    const x = ash.series.map((b) => t(b.ts));
    series.push({ name: `${ash.vcpus} vCPUs`, type: 'line', showSymbol: false, color: p.text, lineStyle: { type: 'dashed', width: 1 }, data: [[Math.min(...x), ash.vcpus], [Math.max(...x), ash.vcpus]] });
  }
  return { legend: legend(p), grid: GRID, xAxis: elapsedAxis(p, end), yAxis: valueAxis(p, 'active sessions'), series: series as EChartsOption['series'] };
}

const CPU_PARTS = ['usr', 'sys', 'iowait', 'other'] as const;

/** CPU busy per cent by kind (all cores), stacked: usr, sys, iowait, irq+soft+steal; idle is what is left to 100. */
export function cpuOption(cpu: CpuSeries, t: (ts: number) => number, end: number | undefined, p: Palette): EChartsOption {
  const rows = downsample(cpu.samples, 600, (g) => {
    const avg = (k: (typeof CPU_PARTS)[number] | 'idle') => g.reduce((a, s) => a + s[k], 0) / g.length;
    return { ts: g[0]!.ts, usr: avg('usr'), sys: avg('sys'), iowait: avg('iowait'), other: avg('other'), idle: avg('idle') };
  });
  return {
    legend: legend(p),
    grid: GRID,
    xAxis: elapsedAxis(p, end),
    yAxis: valueAxis(p, '% CPU', { min: 0, max: 100 }),
    series: CPU_PARTS.map((k) => ({
      name: k === 'other' ? 'irq+soft+steal' : k,
      type: 'line',
      stack: 'cpu',
      showSymbol: false,
      lineStyle: { width: 1 },
      areaStyle: { opacity: 0.5 },
      color: p.cpu[k],
      data: rows.map((s): Point => [t(s.ts), Math.round(s[k] * 10) / 10]),
    })) as EChartsOption['series'],
  };
}
