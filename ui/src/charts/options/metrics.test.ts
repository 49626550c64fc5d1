import { describe, expect, it } from 'vitest';
import { WAIT_CLASS_COLORS } from '@sledge/protocol';
import { ashPointCount, ashOption, phaseAt, phaseSeries, stackedData } from './ash.js';
import { cpuHeatOption, cpuLinesOption } from './cpu.js';
import { DARK, LIGHT, waitClassColor } from './palette.js';
import type { ChartOption } from './types.js';
import type { AshSeries } from '../../metrics/ash.js';
import { selectionFromBrush } from '../../components/metrics/AshChart.js';

type AnySeries = { id?: string; name?: string; data?: unknown[]; color?: string; stack?: string; markArea?: { data: unknown[] }; markLine?: { data: unknown[] } };
const seriesOf = (o: ChartOption): AnySeries[] => (Array.isArray(o.series) ? o.series : [o.series]) as AnySeries[];

const T0 = 1_700_000_000_000;
const series: AshSeries = {
  bucketMs: 1000,
  buckets: [
    { ts: T0, aas: { CPU: 1.5, Client: 0.5 } },
    { ts: T0 + 1000, aas: { CPU: 2 } },
    { ts: T0 + 3000, aas: { Lock: 1 } },
  ],
};
const range = { min: T0 - 1000, max: T0 + 10_000 };

describe('ashOption', () => {
  it('stacks one series per class with CPU first (the bottom), fixed class colours, gaps as 0', () => {
    const o = ashOption({ series, classes: ['CPU', 'Lock', 'Client'], phases: [], phaseEnd: T0 + 4000, range, palette: LIGHT });
    const s = seriesOf(o);
    expect(s.map((x) => x.name)).toEqual(['CPU', 'Lock', 'Client']);
    expect(s.every((x) => x.stack === 'aas')).toBe(true);
    expect(s[0]!.color).toBe(WAIT_CLASS_COLORS.CPU.light);
    expect(s[0]!.data).toEqual([
      [T0, 1.5],
      [T0 + 1000, 2],
      [T0 + 2000, 0],
      [T0 + 3000, 0],
      [T0 + 4000, 0],
    ]);
    expect(s[1]!.data).toEqual([
      [T0, 0],
      [T0 + 1000, 0],
      [T0 + 2000, 0],
      [T0 + 3000, 1],
      [T0 + 4000, 1],
    ]);
    expect(s[2]!.data).toEqual([
      [T0, 0.5],
      [T0 + 1000, 0],
      [T0 + 2000, 0],
      [T0 + 3000, 0],
      [T0 + 4000, 0],
    ]);
    expect(ashPointCount(series, ['CPU', 'Lock', 'Client'])).toBe(15);
    expect((o.xAxis as { min: number }).min).toBe(range.min);
    expect(o.brush).toBeUndefined();
  });

  it('uses the dark variants in the dark theme', () => {
    const s = seriesOf(ashOption({ series, classes: ['CPU'], phases: [], phaseEnd: T0, range, palette: DARK }));
    expect(s[0]!.color).toBe(WAIT_CLASS_COLORS.CPU.dark);
    expect(waitClassColor('NoSuchClass', DARK)).toBe(WAIT_CLASS_COLORS.Other.dark);
  });

  it('draws the vCPU line across the range, phase bands and a lineX brush', () => {
    const phases = [
      { ts: T0, label: 'rampup' },
      { ts: T0 + 6000, label: 'measuring' },
    ];
    const o = ashOption({ series, classes: ['CPU'], vcpus: { count: 4, label: '4 vCPU · db' }, phases, phaseEnd: T0 + 9000, range, palette: LIGHT, brush: true });
    const s = seriesOf(o);
    expect(s.find((x) => x.id === 'vcpu')?.name).toBe('4 vCPU · db');
    expect(s.find((x) => x.id === 'vcpu')?.data).toEqual([
      [range.min, 4],
      [range.max, 4],
    ]);
    const ph = s.find((x) => x.id === 'phases')!;
    expect(ph.markLine!.data).toEqual([{ xAxis: T0 }, { xAxis: T0 + 6000 }]);
    expect(ph.markArea!.data).toHaveLength(2);
    expect((ph.markArea!.data[1] as [{ xAxis: number; name: string }, { xAxis: number }])[1].xAxis).toBe(T0 + 9000);
    expect(o.brush).toMatchObject({ brushType: 'lineX', xAxisIndex: 0, brushMode: 'single' });
  });

  it('leaves narrow phases unlabelled and finds the phase of a time', () => {
    const phases = [
      { ts: T0, label: 'build: schema' },
      { ts: T0 + 100, label: 'build: load' },
    ];
    const areas = phaseSeries(phases, T0 + 10_000, range, LIGHT).markArea!.data as [{ name: string }, unknown][];
    expect(areas.map((a) => a[0].name)).toEqual(['', 'load']);
    expect(phaseAt(phases, T0 + 50)?.label).toBe('build: schema');
    expect(phaseAt(phases, T0 - 1)).toBeUndefined();
    expect(stackedData({ bucketMs: 1000, buckets: [] }, ['CPU'])).toEqual({ CPU: [] });
  });
});

describe('CPU options', () => {
  const cpu = (ts: number, usr: number) => ({
    ts,
    cpus: [
      { cpu: 'all', usr, sys: 5, iowait: 1, irq: 0, soft: 0.5, steal: 0, idle: 100 - usr - 6.5 },
      { cpu: '0', usr, sys: 5, iowait: 1, irq: 0, soft: 0.5, steal: 0, idle: 100 - usr - 6.5 },
    ],
    iops: 0,
    mbps: 0,
  });
  it('plots usr, sys, iowait, irq, soft and steal of all CPUs on the shared time axis', () => {
    const o = cpuLinesOption({ samples: [cpu(T0, 20), cpu(T0 + 1000, 40)], range, palette: LIGHT, selection: [T0, T0 + 1000] });
    const s = seriesOf(o);
    expect(s.map((x) => x.name)).toEqual(['usr', 'sys', 'iowait', 'irq', 'soft', 'steal']);
    expect(s[0]!.data).toEqual([
      [T0, 20],
      [T0 + 1000, 40],
    ]);
    expect(s[0]!.markArea!.data).toEqual([[{ xAxis: T0 }, { xAxis: T0 + 1000 }]]);
    expect((o.xAxis as { min: number; max: number }).max).toBe(range.max);
  });

  it('draws the heat strip as cells on the same time axis', () => {
    const o = cpuHeatOption({ strip: { cores: ['cpu0'], cells: [[T0, 0, 26.5, T0 + 1000]] }, range, palette: LIGHT });
    expect((o.xAxis as { type: string; min: number }).type).toBe('time');
    expect((o.xAxis as { min: number }).min).toBe(range.min);
    expect(seriesOf(o)[0]!.data).toEqual([[T0, 0, 26.5, T0 + 1000]]);
    expect((o.yAxis as { data: string[] }).data).toEqual(['cpu0']);
  });
});

describe('selectionFromBrush', () => {
  it('reads a lineX range and treats no area as cleared', () => {
    expect(selectionFromBrush({ areas: [{ coordRange: [T0 + 5000, T0 + 1000] }] })).toEqual([T0 + 1000, T0 + 5000]);
    expect(selectionFromBrush({ areas: [] })).toBeNull();
    expect(selectionFromBrush({ areas: [{ coordRange: [T0, T0] }] })).toBeNull();
  });
});
