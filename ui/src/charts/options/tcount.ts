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
    yAxis: valueAxis(p, 'per minute'),
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
    yAxis: valueAxis(p, 'tx/s'),
    dataZoom: zoom(),
    series,
  };
}

export interface LatencyInput {
  latency: readonly LatencySample[];
  type: TxType;
  range: TimeRange | undefined;
  palette: ChartPalette;
}

/** Interval latency percentiles (p50/p95/p99, ms) of one transaction type. */
export function latencyOption({ latency, type, range, palette: p }: LatencyInput): ChartOption {
  const pick = (k: 'p50' | 'p95' | 'p99'): Point[] => {
    const out: Point[] = [];
    for (const s of latency) {
      const v = s.perType[type];
      if (v && v.count > 0) out.push([s.ts, v[k]]);
    }
    return out;
  };
  const data = { p50: pick('p50'), p95: pick('p95'), p99: pick('p99') };
  const style = lineStyle(data.p50.length);
  const series: LineSeriesOption[] = (['p50', 'p95', 'p99'] as const).map((k) => ({
    id: k,
    name: `${TX_PROC[type]} ${k}`,
    type: 'line',
    data: data[k],
    color: p[k],
    ...style,
    lineStyle: { width: k === 'p50' ? 2 : 1.5 },
  }));
  return {
    ...base(p),
    tooltip: { ...tooltip(p), valueFormatter: (v) => (typeof v === 'number' ? `${compact(v)} ms` : String(v)) },
    legend: legend(p),
    grid: grid(),
    xAxis: timeAxis(p, range),
    yAxis: valueAxis(p, 'ms'),
    dataZoom: zoom(),
    series,
  };
}
