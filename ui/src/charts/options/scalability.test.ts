import { describe, expect, it } from 'vitest';
import type { ProfileScalability } from '@sledge/protocol';
import { LIGHT } from './palette.js';
import { scalabilityOption } from './scalability.js';

type S = { id: string; data: [number, number][]; stack?: string; markLine?: { data: { xAxis: number }[] } };

const usl = (n: number) => (1000 * n) / (1 + 0.05 * (n - 1) + 0.01 * n * (n - 1));
const PEAK = Math.sqrt(0.95 / 0.01);

/** A reply with measured points on the curve, the curve from 1 to 15 VUs and, when `band`, a ±5% band. */
function reply(ns: number[], band: boolean): ProfileScalability {
  const curve = Array.from({ length: 15 }, (_, i) => ({ n: i + 1, x: usl(i + 1), ...(band ? { lo: usl(i + 1) * 0.95, hi: usl(i + 1) * 1.05 } : {}) }));
  return {
    profileId: 1,
    engine: 'postgresql',
    metric: 'nopm',
    steps: ns.map((n) => ({ vus: n, jobIds: ['j'], nopm: usl(n), tpm: usl(n) * 2, waits: [] })),
    fit: { x1: 1000, sigma: 0.05, kappa: 0.01, r2: 1, points: ns.length, distinctN: ns.length, dof: band ? ns.length - 3 : 0, peak: { n: PEAK, x: usl(PEAK) }, ceiling: null, curve, iterations: 3 },
    latencyMetric: 'p95(neworder)',
    knee: null,
    waitGrowth: [],
    grewMost: [],
    summary: '',
  };
}

describe('scalability chart', () => {
  it('measured points, the fitted curve and the peak line; no band when the fit has no residual degrees of freedom', () => {
    const o = scalabilityOption(reply([1, 2, 4], false), LIGHT);
    const series = o.series as S[];
    expect(series.map((x) => x.id)).toEqual(['measured', 'usl']);
    expect(series[0]!.data.map((d) => d[0])).toEqual([1, 2, 4]);
    expect(series[1]!.markLine!.data[0]!.xAxis).toBeCloseTo(PEAK, 9);
    expect(series[1]!.data).toHaveLength(15);
  });

  it('a stacked 95% band (lower edge, then its width) when there are more points than parameters', () => {
    const s = reply([1, 2, 4, 8, 12], true);
    const series = scalabilityOption(s, LIGHT).series as S[];
    const lo = series.find((x) => x.id === 'band-lo')!;
    const width = series.find((x) => x.id === 'band')!;
    expect(lo.stack).toBe('band');
    expect(width.stack).toBe('band');
    const c = s.fit!.curve[10]!;
    expect(lo.data[10]).toEqual([c.n, c.lo]);
    expect(width.data[10]![1]).toBeCloseTo(c.hi! - c.lo!, 9);
    expect(width.data[10]![1]).toBeGreaterThan(0);
  });
});
