import type { ClientSample, EngineSample, LatencySample, TxType } from '@sledge/protocol';
import { TX_PROC, TX_TYPES } from '@sledge/protocol';
import type { ChartPalette } from './palette.js';
import type { ChartOption, LineSeriesOption, Point, TimeRange } from './types.js';
import { base, compact, grid, legend, lineStyle, timeAxis, tooltip, valueAxis, zoom } from './common.js';

export interface TcountInput {
  engine: readonly EngineSample[];
  /** "PostgreSQL TPM", or "SQLite TPM (client-counted)" */
  tpmLabel: string;
  range: TimeRange | undefined;
  palette: ChartPalette;
}

/** NOPM and the engine's TPM over time (HammerDB's transaction counter, one point per tcRefreshSec). */
export function tcountOption({ engine, tpmLabel, range, palette: p }: TcountInput): ChartOption {
  const nopm: Point[] = engine.map((s) => [s.ts, s.nopm]);
  const tpm: Point[] = engine.map((s) => [s.ts, s.tpm]);
  const style = lineStyle(engine.length);
  const series: LineSeriesOption[] = [
    { id: 'nopm', name: 'NOPM', type: 'line', data: nopm, color: p.nopm, ...style, lineStyle: { width: 2 } },
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

export interface ClientRatesInput {
  client: readonly ClientSample[];
  range: TimeRange | undefined;
  palette: ChartPalette;
}

/** Client-side transactions per second by type, stacked (the top edge is the total). */
export function clientRatesOption({ client, range, palette: p }: ClientRatesInput): ChartOption {
  const style = lineStyle(client.length);
  const series: LineSeriesOption[] = TX_TYPES.map((t) => ({
    id: t,
    name: TX_PROC[t],
    type: 'line',
    stack: 'tx',
    areaStyle: { opacity: 0.35 },
    data: client.map((s): Point => [s.ts, s.rates[t] ?? 0]),
    color: p.tx[t],
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
  range: TimeRange | undefined;
  palette: ChartPalette;
  /** Colour the lines by transaction type (for showing all types at one percentile) rather than by percentile. */
  byType?: boolean;
}

export const PCTS = ['p50', 'p95', 'p99'] as const;
export type Pct = (typeof PCTS)[number];
export const latencySeriesName = (type: TxType, k: (typeof PCTS)[number]) => `${TX_PROC[type]} ${k}`;

/**
 * Interval latency percentiles (p50/p95/p99, ms) of every transaction type:
 * 15 series, of which `latencyLegend` shows one type's three and
 * `latencyAllLegend` every type's one percentile. Switching type or
 * percentile only changes the legend selection, so a 2-hour run's 7,200-point
 * series are not rebuilt on every switch (only the colouring, by percentile or
 * by type, is part of the series).
 */
export function latencyOption({ latency, range, palette: p, byType = false }: LatencyInput): ChartOption {
  const series: LineSeriesOption[] = [];
  for (const type of TX_TYPES) {
    const data = { p50: [] as Point[], p95: [] as Point[], p99: [] as Point[] };
    for (const s of latency) {
      const v = s.perType[type];
      if (v && v.count > 0) {
        data.p50.push([s.ts, v.p50]);
        data.p95.push([s.ts, v.p95]);
        data.p99.push([s.ts, v.p99]);
      }
    }
    const style = lineStyle(data.p50.length);
    for (const k of PCTS) {
      series.push({ id: `${type}-${k}`, name: latencySeriesName(type, k), type: 'line', data: data[k], color: byType ? p.tx[type] : p[k], ...style, lineStyle: { width: byType || k === 'p50' ? 2 : 1.5 } });
    }
  }
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? `${compact(v)} ms` : String(v)) },
    legend: { ...legend(p), ...(byType ? latencyAllLegend('p95') : latencyLegend('neworder')).legend },
    grid: grid(),
    xAxis: timeAxis(p, range),
    // The unit is in the card's title: an axis name here would sit under the legend on a narrow chart.
    yAxis: valueAxis(p, ''),
    dataZoom: zoom(),
    series,
  };
}

/** The legend part that shows one transaction type's percentiles and hides the other types. */
export function latencyLegend(type: TxType): { legend: { data: string[]; selected: Record<string, boolean>; formatter: (name: string) => string } } {
  const selected: Record<string, boolean> = {};
  for (const t of TX_TYPES) for (const k of PCTS) selected[latencySeriesName(t, k)] = t === type;
  return { legend: { data: PCTS.map((k) => latencySeriesName(type, k)), selected, formatter: (name) => name } };
}

/** The legend part that shows every transaction type at one percentile (the legend names the types; the percentile is in the selector). */
export function latencyAllLegend(pct: Pct): { legend: { data: string[]; selected: Record<string, boolean>; formatter: (name: string) => string } } {
  const selected: Record<string, boolean> = {};
  for (const t of TX_TYPES) for (const k of PCTS) selected[latencySeriesName(t, k)] = k === pct;
  return { legend: { data: TX_TYPES.map((t) => latencySeriesName(t, pct)), selected, formatter: (name) => name.replace(/ p\d\d$/, '') } };
}
