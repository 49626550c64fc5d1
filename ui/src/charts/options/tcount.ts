import type { ClientSample, EngineSample, LatencySample } from '@sledge/protocol';
import type { ChartPalette } from './palette.js';
import type { ChartOption, LineSeriesOption, Point, TimeRange } from './types.js';
import { base, compact, grid, legend, lineStyle, timeAxis, tooltip, valueAxis, zoom } from './common.js';

export interface TcountInput {
  engine: readonly EngineSample[];
  /** "PostgreSQL TPM", or "SQLite TPM (client-counted)" */
  tpmLabel: string;
  range: TimeRange | undefined;
  palette: ChartPalette;
  /** Vertical marks on the time axis (sessions lost / reconnected). */
  marks?: readonly { ts: number; label: string; kind: 'drop' | 'back' }[];
}

/** Marks as an ECharts markLine: red dashed where sessions dropped, green where they came back. */
function markLine(marks: TcountInput['marks'], p: ChartPalette): Partial<LineSeriesOption> {
  if (!marks?.length) return {};
  return {
    markLine: {
      symbol: 'none',
      animation: false,
      label: { formatter: '{b}', position: 'insideEndTop', color: p.text, fontSize: 10 },
      data: marks.map((m) => ({ xAxis: m.ts, name: m.label, label: { position: m.kind === 'drop' ? 'insideEndTop' : 'insideStartBottom' }, lineStyle: { type: 'dashed', width: 1, color: m.kind === 'drop' ? p.p99 : p.mode === 'dark' ? '#4ade80' : '#16a34a' } })),
    },
  };
}

/** NOPM and the engine's TPM over time (HammerDB's transaction counter, one point per tcRefreshSec). */
export function tcountOption({ engine, tpmLabel, range, palette: p, marks }: TcountInput): ChartOption {
  const nopm: Point[] = engine.map((s) => [s.ts, s.nopm]);
  const tpm: Point[] = engine.map((s) => [s.ts, s.tpm]);
  const style = lineStyle(engine.length);
  const series: LineSeriesOption[] = [
    { id: 'nopm', name: 'NOPM', type: 'line', data: nopm, color: p.nopm, ...style, lineStyle: { width: 2 }, ...markLine(marks, p) },
    { id: 'tpm', name: tpmLabel, type: 'line', data: tpm, color: p.tpm, ...style, lineStyle: { width: 2 } },
  ];
  return {
    ...base(p),
    tooltip: tooltip(p),
    legend: legend(p),
    grid: grid(),
    xAxis: timeAxis(p, range),
    // The unit is in the card's title: an axis name here would sit under the legend on a narrow chart.
    yAxis: valueAxis(p, ''),
    dataZoom: zoom(),
    series,
  };
}

/** An operation of the job's workload as the charts need it (the workload module's `ops`). */
export interface ChartOp {
  id: string;
  label: string;
  color: { light: string; dark: string };
}

const opColor = (op: ChartOp, p: ChartPalette) => op.color[p.mode];

export interface ClientRatesInput {
  client: readonly ClientSample[];
  /** The workload's operations, one stacked series each. */
  ops: readonly ChartOp[];
  range: TimeRange | undefined;
  palette: ChartPalette;
}

/** Client-side transactions per second by operation, stacked (the top edge is the total). */
export function clientRatesOption({ client, ops, range, palette: p }: ClientRatesInput): ChartOption {
  const style = lineStyle(client.length);
  const series: LineSeriesOption[] = ops.map((op) => ({
    id: op.id,
    name: op.label,
    type: 'line',
    stack: 'tx',
    areaStyle: { opacity: 0.35 },
    data: client.map((s): Point => [s.ts, (s.rates as Readonly<Record<string, number>>)[op.id] ?? 0]),
    color: opColor(op, p),
    ...style,
    showSymbol: false,
    lineStyle: { width: 1 },
  }));
  const errors: Point[] = client.map((s) => [s.ts, s.errors]);
  if (errors.some(([, v]) => v > 0)) {
    series.push({ id: 'errors', name: 'errors', type: 'line', data: errors, color: p.p99, ...style, lineStyle: { width: 1, type: 'dashed' } });
  }
  return {
    ...base(p),
    tooltip: tooltip(p),
    legend: legend(p),
    grid: grid(),
    xAxis: timeAxis(p, range),
    // The unit is in the card's title: an axis name here would sit under the legend on a narrow chart.
    yAxis: valueAxis(p, ''),
    dataZoom: zoom(),
    series,
  };
}

export interface LatencyInput {
  latency: readonly LatencySample[];
  /** The workload's operations (the first is shown first). */
  ops: readonly ChartOp[];
  range: TimeRange | undefined;
  palette: ChartPalette;
  /** Colour the lines by transaction type (for showing all types at one percentile) rather than by percentile. */
  byType?: boolean;
}

export const PCTS = ['p50', 'p95', 'p99'] as const;
export type Pct = (typeof PCTS)[number];
export const latencySeriesName = (op: ChartOp, k: (typeof PCTS)[number]) => `${op.label} ${k}`;

/**
 * Interval latency percentiles (p50/p95/p99, ms) of every operation: three
 * series each (15 for TPROC-C's five transactions), of which `latencyLegend` shows one type's three and
 * `latencyAllLegend` every type's one percentile. Switching type or
 * percentile only changes the legend selection, so a 2-hour run's 7,200-point
 * series are not rebuilt on every switch (only the colouring, by percentile or
 * by type, is part of the series).
 */
export function latencyOption({ latency, ops, range, palette: p, byType = false }: LatencyInput): ChartOption {
  const series: LineSeriesOption[] = [];
  for (const op of ops) {
    const data = { p50: [] as Point[], p95: [] as Point[], p99: [] as Point[] };
    for (const s of latency) {
      const v = s.perType[op.id];
      if (v && v.count > 0) {
        data.p50.push([s.ts, v.p50]);
        data.p95.push([s.ts, v.p95]);
        data.p99.push([s.ts, v.p99]);
      }
    }
    const style = lineStyle(data.p50.length);
    for (const k of PCTS) {
      series.push({ id: `${op.id}-${k}`, name: latencySeriesName(op, k), type: 'line', data: data[k], color: byType ? opColor(op, p) : p[k], ...style, lineStyle: { width: byType || k === 'p50' ? 2 : 1.5 } });
    }
  }
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? `${compact(v)} ms` : String(v)) },
    legend: { ...legend(p), ...(byType ? latencyAllLegend(ops, 'p95') : latencyLegend(ops, ops[0]?.id ?? '')).legend },
    grid: grid(),
    xAxis: timeAxis(p, range),
    // The unit is in the card's title: an axis name here would sit under the legend on a narrow chart.
    yAxis: valueAxis(p, ''),
    dataZoom: zoom(),
    series,
  };
}

/** The legend part that shows one operation's percentiles and hides the other operations. */
export function latencyLegend(ops: readonly ChartOp[], type: string): { legend: { data: string[]; selected: Record<string, boolean>; formatter: (name: string) => string } } {
  const selected: Record<string, boolean> = {};
  for (const o of ops) for (const k of PCTS) selected[latencySeriesName(o, k)] = o.id === type;
  const shown = ops.find((o) => o.id === type);
  return { legend: { data: shown ? PCTS.map((k) => latencySeriesName(shown, k)) : [], selected, formatter: (name) => name } };
}

/** The legend part that shows every transaction type at one percentile (the legend names the types; the percentile is in the selector). */
export function latencyAllLegend(ops: readonly ChartOp[], pct: Pct): { legend: { data: string[]; selected: Record<string, boolean>; formatter: (name: string) => string } } {
  const selected: Record<string, boolean> = {};
  for (const o of ops) for (const k of PCTS) selected[latencySeriesName(o, k)] = k === pct;
  return { legend: { data: ops.map((o) => latencySeriesName(o, pct)), selected, formatter: (name) => name.replace(/ p\d\d$/, '') } };
}
