import type { StepResult } from '@sledge/protocol';
import type { ChartPalette } from './palette.js';
import type { ChartOption, LineSeriesOption, BarSeriesOption, Point, TimeRange } from './types.js';
import { base, grid, legend, lineStyle, timeAxis, tooltip, valueAxis, zoom } from './common.js';

/** Arrival-rate mode's live sample (metric kind `shape`, kind 'arrival'). */
export interface ArrivalSample {
  ts: number;
  target: number;
  achieved: number;
  inUse: number;
  dropped: number;
}

/** Step loads: NOPM and TPM per step as bars, the step's VUs as a line on the right axis. */
export function stepsOption({ steps, tpmLabel, palette: p }: { steps: readonly StepResult[]; tpmLabel: string; palette: ChartPalette }): ChartOption {
  const cats = steps.map((s) => `Step ${s.index}`);
  const bar = (id: string, name: string, color: string, data: number[]): BarSeriesOption => ({ id, name, type: 'bar', data, color, barMaxWidth: 48, label: { show: steps.length <= 8, position: 'top', color: p.muted, fontSize: 10 } });
  return {
    ...base(p),
    tooltip: tooltip(p),
    legend: legend(p),
    grid: { ...grid(), right: 48 },
    xAxis: { type: 'category', data: cats, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted } },
    yAxis: [valueAxis(p, '') as object, { ...(valueAxis(p, '') as object), position: 'right', splitLine: { show: false }, minInterval: 1 }] as ChartOption['yAxis'],
    series: [
      bar('nopm', 'NOPM', p.nopm, steps.map((s) => s.nopm)),
      bar('tpm', tpmLabel, p.tpm, steps.map((s) => s.tpm)),
      { id: 'vus', name: 'VUs (right)', type: 'line', step: 'middle', yAxisIndex: 1, data: steps.map((s) => s.vus), color: p.vcpu, symbolSize: 7, lineStyle: { width: 2 } },
    ],
  };
}

/** Step loads: each step's latency percentile per transaction (ms), one line per transaction. */
export function stepLatencyOption({ steps, ops, pct, palette: p }: { steps: readonly StepResult[]; ops: readonly { id: string; label: string; color: { light: string; dark: string } }[]; pct: 'p50' | 'p95' | 'p99'; palette: ChartPalette }): ChartOption {
  const cats = steps.map((s) => `Step ${s.index} (${s.vus} VU)`);
  return {
    ...base(p),
    tooltip: tooltip(p),
    legend: legend(p),
    grid: grid(),
    xAxis: { type: 'category', data: cats, axisLine: { lineStyle: { color: p.axisLine } }, axisLabel: { color: p.muted } },
    yAxis: valueAxis(p, ''),
    series: ops.map(
      (op): LineSeriesOption => ({ id: op.id, name: op.label, type: 'line', data: steps.map((s) => s.latency[op.id]?.[pct] ?? null), color: op.color[p.mode], symbolSize: 6, lineStyle: { width: 2 } }),
    ),
  };
}

/** Arrival-rate mode over time: target vs achieved rate (tx/s), sessions in use, dropped arrivals per second. */
export function arrivalOption({ samples, range, palette: p }: { samples: readonly ArrivalSample[]; range: TimeRange | undefined; palette: ChartPalette }): ChartOption {
  const style = lineStyle(samples.length);
  const pts = (f: (s: ArrivalSample) => number): Point[] => samples.map((s) => [s.ts, f(s)]);
  return {
    ...base(p),
    tooltip: tooltip(p),
    legend: legend(p),
    grid: { ...grid(), right: 48 },
    xAxis: timeAxis(p, range),
    yAxis: [valueAxis(p, '') as object, { ...(valueAxis(p, '') as object), position: 'right', splitLine: { show: false }, minInterval: 1 }] as ChartOption['yAxis'],
    dataZoom: zoom(),
    series: [
      { id: 'target', name: 'target', type: 'line', data: pts((s) => s.target), color: p.muted, ...style, lineStyle: { width: 2, type: 'dashed' } },
      { id: 'achieved', name: 'achieved', type: 'line', data: pts((s) => s.achieved), color: p.tpm, ...style, lineStyle: { width: 2 } },
      { id: 'dropped', name: 'dropped', type: 'bar', data: pts((s) => s.dropped), color: p.p99, barMaxWidth: 6 },
      { id: 'inUse', name: 'busy sessions', type: 'line', yAxisIndex: 1, step: 'end', data: pts((s) => s.inUse), color: p.vcpu, ...style, lineStyle: { width: 1 } },
    ],
  };
}
