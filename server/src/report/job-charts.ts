import type { EChartsOption } from 'echarts';
import { ENGINE_DISPLAY, TPROCC, TX_PROC, TX_TYPES, opColor, type ClientSample, type EngineSample, type TimingRow, type TxType } from '@sledge/protocol';
import type { Palette } from './palette.js';
import { GRID, bandsMarkArea, elapsedAxis, legend, line, valueAxis, type Band, type Point } from './chart-common.js';
import { compact, downsample } from './format.js';

/** Engine samples without the zero first sample and the all-zero tail after the VUs stopped. */
export function chartableEngine(samples: readonly EngineSample[]): EngineSample[] {
  let from = 0;
  let to = samples.length;
  if (samples.length && samples[0]!.tpm === 0 && samples[0]!.nopm === 0) from = 1;
  while (to > from && samples[to - 1]!.tpm === 0 && samples[to - 1]!.nopm === 0) to--;
  return samples.slice(from, to);
}

/** "PostgreSQL TPM", or "SQLite TPM (client-counted)". */
export function tpmLabel(engine: string, source: 'engine' | 'client' | undefined): string {
  const name = ENGINE_DISPLAY[engine as keyof typeof ENGINE_DISPLAY] ?? engine;
  return `${name} TPM${source === 'client' ? ' (client-counted)' : ''}`;
}

export interface TcountChart {
  engine: readonly EngineSample[];
  t: (ts: number) => number;
  bands: readonly Band[];
  tpmLabel: string;
  end?: number | undefined;
}

/** NOPM and TPM over time (HammerDB's transaction counter), rampup and the measured window shaded. */
export function tcountOption(c: TcountChart, p: Palette): EChartsOption {
  const rows = chartableEngine(c.engine);
  const nopm: Point[] = rows.map((s) => [c.t(s.ts), s.nopm]);
  const tpm: Point[] = rows.map((s) => [c.t(s.ts), s.tpm]);
  return {
    legend: legend(p),
    grid: GRID,
    xAxis: elapsedAxis(p, c.end),
    yAxis: valueAxis(p),
    series: [
      { name: 'NOPM', data: nopm, color: p.nopm, ...line(nopm.length), ...bandsMarkArea(c.bands, p) },
      { name: c.tpmLabel, data: tpm, color: p.tpm, ...line(tpm.length) },
    ] as EChartsOption['series'],
  };
}

/** Client-side transactions per second by type, stacked (the top edge is the total). */
export function clientRatesOption(client: readonly ClientSample[], t: (ts: number) => number, end: number | undefined, p: Palette): EChartsOption {
  const rows = downsample(client, 600, (g) => ({ ...g[0]!, rates: Object.fromEntries(TX_TYPES.map((x) => [x, g.reduce((a, s) => a + s.rates[x], 0) / g.length])) as ClientSample['rates'] }));
  return {
    legend: legend(p),
    grid: GRID,
    xAxis: elapsedAxis(p, end),
    yAxis: valueAxis(p),
    series: TX_TYPES.map((x: TxType) => ({
      name: TX_PROC[x],
      type: 'line',
      stack: 'tx',
      areaStyle: { opacity: 0.35 },
      showSymbol: false,
      lineStyle: { width: 1 },
      // The transaction's own colour, as the dashboard draws it.
      color: opColor(TPROCC.id, x)[p.mode],
      data: rows.map((s): Point => [t(s.ts), s.rates[x]]),
    })) as EChartsOption['series'],
  };
}

/** Box plot of the time profile: box p25..p75, median, whiskers min..p99 (as the dashboard and HammerDB v6 draw it). */
export function timingBoxOption(rows: readonly TimingRow[], p: Palette): EChartsOption {
  return {
    grid: { left: 84, right: 24, top: 12, bottom: 40 },
    xAxis: {
      type: 'log',
      name: 'ms (log scale)',
      nameLocation: 'middle',
      nameGap: 26,
      nameTextStyle: { color: p.muted, fontSize: 11 },
      axisLabel: { color: p.muted, formatter: (v: number) => compact(v) },
      axisLine: { lineStyle: { color: p.axisLine } },
      splitLine: { lineStyle: { color: p.splitLine } },
    },
    yAxis: { type: 'category', data: rows.map((r) => r.proc), inverse: true, axisLabel: { color: p.text }, axisLine: { lineStyle: { color: p.axisLine } } },
    series: [
      {
        name: 'response time',
        type: 'boxplot',
        // A log axis cannot show 0: the fastest calls sit at 1 µs.
        data: rows.map((r) => [r.minMs, r.p25Ms, r.p50Ms, r.p75Ms, r.p99Ms].map((v) => Math.max(v, 0.001))),
        itemStyle: { color: p.box, borderColor: p.nopm, borderWidth: 1.5 },
        boxWidth: [10, 30],
      },
    ] as EChartsOption['series'],
  };
}
