import { describe, expect, it } from 'vitest';
import type { ClientSample, EngineSample, LatencySample, TimingRow } from '@sledge/protocol';
import { job } from '../../live/fixtures.js';
import { boxplotOption, summaryRows } from './boxplot.js';
import { compareOption, profileOption } from './compare.js';
import { DENSE_POINTS, clock, compact, elapsed } from './common.js';
import { DARK, LIGHT } from './palette.js';
import { jobTimeRange } from './range.js';
import { clientRatesOption, latencyAllLegend, latencyLegend, latencyOption, tcountOption } from './tcount.js';
import type { ChartOption } from './types.js';
import { TPROCC_OPS as ops } from '../../workloads/tprocc/ops.js';

/** A TPROC-C transaction's light-theme colour (the workload module's). */
const opColor = (id: string) => ops.find((o) => o.id === id)!.color.light;

type AnySeries = { id?: string; name?: string; data?: unknown[]; color?: string; showSymbol?: boolean; sampling?: string; stack?: string };
const seriesOf = (o: ChartOption): AnySeries[] => (Array.isArray(o.series) ? o.series : [o.series]) as AnySeries[];
const xAxisOf = (o: ChartOption) => o.xAxis as { type: string; min?: number; max?: number };

const engine: EngineSample[] = [
  { ts: 10_000, tpm: 0, nopm: 0 },
  { ts: 20_000, tpm: 6000, nopm: 2500 },
];
const range = { min: 5_000, max: 65_000 };

describe('tcountOption', () => {
  it('plots NOPM and TPM against the shared time range', () => {
    const o = tcountOption({ engine, tpmLabel: 'PostgreSQL TPM', range, palette: LIGHT });
    const s = seriesOf(o);
    expect(s.map((x) => x.name)).toEqual(['NOPM', 'PostgreSQL TPM']);
    expect(s[0]!.data).toEqual([
      [10_000, 0],
      [20_000, 2500],
    ]);
    expect(s[1]!.data).toEqual([
      [10_000, 0],
      [20_000, 6000],
    ]);
    expect(xAxisOf(o)).toMatchObject({ type: 'time', min: 5_000, max: 65_000 });
    expect(o.animation).toBe(false);
  });

  it('hides symbols and samples long series', () => {
    const long = Array.from({ length: 7200 }, (_, i) => ({ ts: i * 1000, tpm: i, nopm: i }));
    const s = seriesOf(tcountOption({ engine: long, tpmLabel: 'TPM', range: undefined, palette: LIGHT }));
    expect(s[0]!.data).toHaveLength(7200);
    expect(s[0]!.showSymbol).toBe(false);
    expect(s[0]!.sampling).toBe('lttb');
    const short = seriesOf(tcountOption({ engine: long.slice(0, DENSE_POINTS), tpmLabel: 'TPM', range: undefined, palette: LIGHT }));
    expect(short[0]!.showSymbol).toBe(true);
  });

  it('takes its colours from the palette (dark theme)', () => {
    const s = seriesOf(tcountOption({ engine, tpmLabel: 'TPM', range, palette: DARK }));
    expect(s[0]!.color).toBe(DARK.nopm);
    expect(s[1]!.color).toBe(DARK.tpm);
  });
});

describe('clientRatesOption', () => {
  const sample = (ts: number, errors = 0): ClientSample => ({
    ts,
    rates: { neworder: 10, payment: 9, delivery: 1, stocklevel: 1, orderstatus: 2 },
    commits: 23,
    rollbacks: 0,
    errors,
  });
  it('stacks one series per transaction type, named as HammerDB names them', () => {
    const s = seriesOf(clientRatesOption({ client: [sample(1000), sample(2000)], range, palette: LIGHT, ops }));
    expect(s.map((x) => x.name)).toEqual(['NEWORD', 'PAYMENT', 'DELIVERY', 'SLEV', 'OSTAT']);
    expect(s.every((x) => x.stack === 'tx')).toBe(true);
    expect(s[1]!.data).toEqual([
      [1000, 9],
      [2000, 9],
    ]);
  });
  it('adds an errors series only when there are errors', () => {
    expect(seriesOf(clientRatesOption({ client: [sample(1000)], range, palette: LIGHT, ops })).some((x) => x.id === 'errors')).toBe(false);
    expect(seriesOf(clientRatesOption({ client: [sample(1000, 3)], range, palette: LIGHT, ops })).find((x) => x.id === 'errors')?.data).toEqual([[1000, 3]]);
  });
});

describe('latencyOption', () => {
  const latency: LatencySample[] = [
    { ts: 1000, perType: { neworder: { count: 5, p50: 1, p95: 4, p99: 9, max: 10 } } },
    { ts: 2000, perType: { neworder: { count: 0, p50: 0, p95: 0, p99: 0, max: 0 }, payment: { count: 2, p50: 1, p95: 1, p99: 1, max: 1 } } },
    { ts: 3000, perType: { neworder: { count: 7, p50: 2, p95: 5, p99: 8, max: 8 } } },
  ];
  it('has p50/p95/p99 series per type and skips intervals without calls', () => {
    const s = seriesOf(latencyOption({ latency, ops, range, palette: LIGHT }));
    expect(s).toHaveLength(15);
    expect(s.slice(0, 3).map((x) => x.name)).toEqual(['NEWORD p50', 'NEWORD p95', 'NEWORD p99']);
    expect(s.find((x) => x.name === 'NEWORD p99')!.data).toEqual([
      [1000, 9],
      [3000, 8],
    ]);
    expect(s.find((x) => x.name === 'PAYMENT p50')!.data).toEqual([[2000, 1]]);
    expect(s.find((x) => x.name === 'DELIVERY p95')!.data).toEqual([]);
  });
  it('shows one type at a time through the legend selection', () => {
    const { legend } = latencyLegend(ops, 'payment');
    expect(legend.data).toEqual(['PAYMENT p50', 'PAYMENT p95', 'PAYMENT p99']);
    expect(Object.entries(legend.selected).filter(([, on]) => on).map(([n]) => n)).toEqual(legend.data);
    expect(legend.selected['NEWORD p50']).toBe(false);
    expect((latencyOption({ latency, ops, range, palette: LIGHT }).legend as { data: string[] }).data).toEqual(['NEWORD p50', 'NEWORD p95', 'NEWORD p99']);
  });
  it('shows every type at one percentile, coloured by type, through the legend selection', () => {
    const { legend } = latencyAllLegend(ops, 'p99');
    expect(legend.data).toEqual(['NEWORD p99', 'PAYMENT p99', 'DELIVERY p99', 'SLEV p99', 'OSTAT p99']);
    expect(legend.data.map(legend.formatter)).toEqual(['NEWORD', 'PAYMENT', 'DELIVERY', 'SLEV', 'OSTAT']);
    expect(Object.entries(legend.selected).filter(([, on]) => on).map(([n]) => n)).toEqual(legend.data);
    const byType = seriesOf(latencyOption({ latency, ops, range, palette: LIGHT, byType: true }));
    expect(byType.find((x) => x.name === 'PAYMENT p95')!.color).toBe(opColor('payment'));
    expect(byType.find((x) => x.name === 'NEWORD p95')!.color).toBe(opColor('neworder'));
    expect(seriesOf(latencyOption({ latency, ops, range, palette: LIGHT })).find((x) => x.name === 'PAYMENT p95')!.color).toBe(LIGHT.p95);
    expect((latencyOption({ latency, ops, range, palette: LIGHT, byType: true }).legend as { data: string[] }).data).toEqual(latencyAllLegend(ops, 'p95').legend.data);
  });
});

describe('boxplotOption', () => {
  const row = (proc: string, vu: number, ratioPct: number, minMs: number): TimingRow => ({
    proc,
    vu,
    calls: 10,
    minMs,
    avgMs: 3,
    maxMs: 20,
    totalMs: 30,
    p25Ms: minMs + 1,
    p50Ms: minMs + 2,
    p75Ms: minMs + 3,
    p95Ms: minMs + 4,
    p99Ms: minMs + 5,
    sdMs: 1,
    ratioPct,
    elapsedMs: 1000,
  });
  it('draws box p25..p75 with median and whiskers min..p99, summary rows by ratio', () => {
    const rows = [row('PAYMENT', 0, 20, 0.5), row('NEWORD', 0, 60, 1), row('NEWORD', 2, 60, 100)];
    expect(summaryRows(rows).map((r) => r.proc)).toEqual(['NEWORD', 'PAYMENT']);
    const o = boxplotOption(rows, LIGHT);
    expect(seriesOf(o)[0]!.data).toEqual([
      [1, 2, 3, 4, 6],
      [0.5, 1.5, 2.5, 3.5, 5.5],
    ]);
    expect((o.yAxis as { data: string[] }).data).toEqual(['NEWORD', 'PAYMENT']);
  });
});

describe('compareOption / profileOption', () => {
  it('overlays jobs on elapsed seconds since each job started', () => {
    const o = compareOption(
      [
        { name: 'A', start: 100_000, points: [{ ts: 110_000, value: 5 }] },
        { name: 'B', start: 500_000, points: [{ ts: 530_000, value: 7 }] },
      ],
      'NOPM',
      LIGHT,
    );
    const s = seriesOf(o);
    expect(s[0]!.data).toEqual([[10, 5]]);
    expect(s[1]!.data).toEqual([[30, 7]]);
    expect(s[0]!.color).not.toBe(s[1]!.color);
    expect(xAxisOf(o)).toMatchObject({ type: 'value', min: 0 });
  });

  it('plots NOPM and TPM against active VUs in VU order', () => {
    const o = profileOption(
      [
        { activeVus: 8, nopm: 80, tpm: 190 },
        { activeVus: 1, nopm: 10, tpm: 24 },
      ],
      'PostgreSQL TPM',
      LIGHT,
    );
    const s = seriesOf(o);
    expect(s[0]!.data).toEqual([
      [1, 10],
      [8, 80],
    ]);
    expect(s[1]!.name).toBe('PostgreSQL TPM');
  });
});

describe('jobTimeRange', () => {
  const samples = { engine: [{ ts: Date.parse('2026-01-01T10:00:11Z') }], client: [], latency: [] };
  it('spans start to end for a finished job', () => {
    const r = jobTimeRange(job({ status: 'completed', endedAt: '2026-01-01T10:02:01.000Z' }), samples, 0);
    expect(r).toEqual({ min: Date.parse('2026-01-01T10:00:01Z'), max: Date.parse('2026-01-01T10:02:01Z') });
  });
  it('extends a live timed run to its planned end', () => {
    const start = Date.parse('2026-01-01T10:00:01Z');
    const r = jobTimeRange(job(), samples, start + 5000);
    expect(r).toEqual({ min: start, max: start + 60_000 + 2000 });
  });
});

describe('formatters', () => {
  it('formats axis labels', () => {
    expect(compact(1500)).toBe('1.5k');
    expect(compact(2_500_000)).toBe('2.5M');
    expect(compact(12)).toBe('12');
    expect(elapsed(75)).toBe('1:15');
    expect(elapsed(3725)).toBe('1:02:05');
    expect(clock(new Date(2026, 0, 1, 9, 5, 7).getTime())).toBe('09:05:07');
  });
});

describe('one palette with the HTML report', () => {
  it("the dashboard's transaction and chart colours are protocol's, which the report draws with", async () => {
    const { CHART_COLORS, TX_COLORS, opColor: protocolColor } = await import('@sledge/protocol');
    const { TPROCH_OPS } = await import('../../workloads/tproch/ops.js');
    expect(ops.map((o) => [o.id, o.color])).toEqual(Object.entries(TX_COLORS));
    expect(TPROCH_OPS.map((o) => o.color)).toEqual(TPROCH_OPS.map((o) => protocolColor('tproch', o.id)));
    for (const [p, mode] of [[LIGHT, 'light'], [DARK, 'dark']] as const) {
      expect([p.text, p.nopm, p.tpm, p.p50, p.p95, p.p99, p.series, p.cpu]).toEqual([CHART_COLORS[mode].text, CHART_COLORS[mode].nopm, CHART_COLORS[mode].tpm, CHART_COLORS[mode].p50, CHART_COLORS[mode].p95, CHART_COLORS[mode].p99, CHART_COLORS[mode].series, CHART_COLORS[mode].cpu]);
    }
  });
});
