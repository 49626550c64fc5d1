import { describe, expect, it } from 'vitest';
import { Rng } from '../random.js';
import { fitUsl, latencyKnee, t975, type UslFit, type UslPoint } from './usl.js';

const usl = (x1: number, sigma: number, kappa: number, n: number) => (x1 * n) / (1 + sigma * (n - 1) + kappa * n * (n - 1));
const curve = (x1: number, sigma: number, kappa: number, ns: readonly number[]): UslPoint[] => ns.map((n) => ({ n, x: usl(x1, sigma, kappa, n) }));
const within = (actual: number, expected: number, rel: number) => expect(Math.abs(actual - expected) / expected, `${actual} vs ${expected}`).toBeLessThanOrEqual(rel);
const fit = (pts: UslPoint[]): UslFit => {
  const r = fitUsl(pts);
  if (!r.ok) throw new Error(r.message);
  return r;
};
const finite = (f: UslFit) => {
  for (const v of [f.x1, f.sigma, f.kappa, f.r2, f.peak?.n ?? 0, f.peak?.x ?? 0, f.ceiling ?? 0]) expect(Number.isFinite(v)).toBe(true);
  for (const c of f.curve) for (const v of [c.n, c.x, c.lo ?? 0, c.hi ?? 0]) expect(Number.isFinite(v)).toBe(true);
};

describe('USL fit', () => {
  const SWEEP = [1, 2, 4, 8, 16, 32, 64];

  it('recovers σ and κ of exact curves, and the peak N* = sqrt((1−σ)/κ)', () => {
    for (const [x1, sigma, kappa] of [
      [1000, 0.05, 0.0002],
      [25000, 0.02, 0.001],
      [400, 0.2, 0.00005],
      [3000, 0.08, 0.01],
    ] as const) {
      const f = fit(curve(x1, sigma, kappa, SWEEP));
      within(f.sigma, sigma, 0.001);
      within(f.kappa, kappa, 0.001);
      within(f.x1, x1, 0.001);
      expect(f.r2).toBeGreaterThan(0.999999);
      within(f.peak!.n, Math.sqrt((1 - sigma) / kappa), 0.001);
      within(f.peak!.x, usl(x1, sigma, kappa, Math.sqrt((1 - sigma) / kappa)), 0.001);
      finite(f);
    }
  });

  it('recovers σ and κ within 5% from noisy measurements (1% noise, seeded, repeats at each N)', () => {
    const rng = new Rng(20261129);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
    const [x1, sigma, kappa] = [1200, 0.06, 0.0008];
    const pts: UslPoint[] = [];
    for (const n of [1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64]) for (let r = 0; r < 3; r++) pts.push({ n, x: usl(x1, sigma, kappa, n) * (1 + 0.01 * gauss()) });
    const f = fit(pts);
    within(f.sigma, sigma, 0.05);
    within(f.kappa, kappa, 0.05);
    within(f.x1, x1, 0.05);
    expect(f.r2).toBeGreaterThan(0.99);
    // Noise gives residual degrees of freedom: standard errors and a band around the curve that holds the truth.
    expect(f.dof).toBe(pts.length - 3);
    expect(f.se!.sigma).toBeGreaterThan(0);
    expect(f.se!.kappa).toBeGreaterThan(0);
    expect(f.peak!.nLo!).toBeLessThan(f.peak!.n);
    expect(f.peak!.nHi!).toBeGreaterThan(f.peak!.n);
    for (const c of f.curve.filter((c) => c.n <= 64)) {
      expect(c.lo!).toBeLessThanOrEqual(c.x);
      expect(c.hi!).toBeGreaterThanOrEqual(c.x);
    }
    const truth = Math.sqrt((1 - sigma) / kappa);
    expect(truth).toBeGreaterThan(f.peak!.nLo!);
    expect(truth).toBeLessThan(f.peak!.nHi!);
    finite(f);
  });

  it('more noise widens the band', () => {
    const rng = new Rng(7);
    const pts = (noise: number) => [1, 2, 4, 8, 16, 32].flatMap((n) => [0, 1].map(() => ({ n, x: usl(800, 0.1, 0.002, n) * (1 + noise * (rng.random() - 0.5)) })));
    const width = (f: UslFit) => f.curve.reduce((s, c) => s + (c.hi! - c.lo!), 0);
    expect(width(fit(pts(0.1)))).toBeGreaterThan(width(fit(pts(0.01))));
  });

  it('linear scaling (σ = κ = 0): no peak, no ceiling, finite numbers', () => {
    const f = fit([1, 2, 4, 8].map((n) => ({ n, x: 500 * n })));
    expect(f.sigma).toBeLessThan(1e-9);
    expect(f.kappa).toBeLessThan(1e-9);
    within(f.x1, 500, 1e-6);
    expect(f.peak).toBeNull();
    expect(f.ceiling).toBeNull();
    finite(f);
  });

  it('κ = 0 with contention (Amdahl): no peak, the ceiling X1/σ', () => {
    const f = fit(curve(1000, 0.1, 0, SWEEP));
    within(f.sigma, 0.1, 0.001);
    expect(f.kappa).toBeLessThan(1e-9);
    expect(f.peak).toBeNull();
    within(f.ceiling!, 10000, 0.001);
    finite(f);
  });

  it('three points fit exactly: no degrees of freedom, so no band and no standard errors', () => {
    const f = fit(curve(1000, 0.05, 0.01, [1, 2, 4]));
    within(f.sigma, 0.05, 0.001);
    within(f.kappa, 0.01, 0.001);
    expect(f.dof).toBe(0);
    expect(f.se).toBeUndefined();
    expect(f.curve.every((c) => c.lo === undefined && c.hi === undefined)).toBe(true);
    finite(f);
  });

  it('degenerate inputs give typed failures, never NaN', () => {
    expect(fitUsl([])).toMatchObject({ ok: false, reason: 'too-few-points' });
    expect(fitUsl([{ n: 1, x: 10 }, { n: 2, x: 19 }])).toMatchObject({ ok: false, reason: 'too-few-points' });
    // Repeats at two VU counts are still two VU counts.
    expect(fitUsl([{ n: 1, x: 10 }, { n: 1, x: 11 }, { n: 2, x: 19 }, { n: 2, x: 20 }])).toMatchObject({ ok: false, reason: 'too-few-points' });
    const flat = fitUsl([1, 2, 4, 8].map((n) => ({ n, x: 700 })));
    expect(flat).toMatchObject({ ok: false, reason: 'flat-throughput' });
    expect(flat.ok ? '' : flat.message).toContain('700');
    expect(fitUsl([{ n: 1, x: 1 }, { n: 0, x: 2 }, { n: 4, x: 3 }])).toMatchObject({ ok: false, reason: 'invalid-point', index: 1 });
    expect(fitUsl([{ n: 1, x: 1 }, { n: 2, x: Number.NaN }, { n: 4, x: 3 }])).toMatchObject({ ok: false, reason: 'invalid-point', index: 1 });
    expect(fitUsl([{ n: 1, x: 1 }, { n: 2, x: -2 }, { n: 4, x: 3 }])).toMatchObject({ ok: false, reason: 'invalid-point', index: 1 });
  });

  it('a zero-throughput step and a falling curve still fit with finite numbers', () => {
    finite(fit([{ n: 1, x: 0 }, { n: 2, x: 100 }, { n: 4, x: 150 }, { n: 8, x: 120 }]));
    const down = fit([{ n: 1, x: 1000 }, { n: 2, x: 900 }, { n: 4, x: 700 }, { n: 8, x: 400 }]);
    finite(down);
    expect(down.r2).toBeGreaterThan(0.9);
    expect(down.curve.find((c) => c.n >= 8)!.x).toBeLessThan(down.curve[0]!.x);
  });

  it("Student's t at 95%", () => {
    expect(t975(1)).toBe(12.706);
    expect(t975(10)).toBe(2.228);
    expect(t975(30)).toBe(2.042);
    expect(t975(120)).toBeCloseTo(1.98, 2);
  });
});

describe('latency knee', () => {
  it('the interior point farthest below the chord of a rising convex curve', () => {
    // Flat until 8 VUs, then steep: the knee is at 8.
    const k = latencyKnee([1, 2, 4, 8, 16, 32].map((n) => ({ n, latency: n <= 8 ? 2 + 0.1 * n : 2.8 + 2 * (n - 8) })));
    expect(k).toMatchObject({ ok: true, n: 8 });
    expect(k.ok && k.latency).toBeCloseTo(2.8, 6);
  });

  it('latency from the USL: linear when κ = 0 (no knee), convex when κ > 0 (a knee)', () => {
    const r = (sigma: number, kappa: number, n: number) => (1 + sigma * (n - 1) + kappa * n * (n - 1)) / 100;
    const ns = [1, 2, 4, 8, 16, 32];
    expect(latencyKnee(ns.map((n) => ({ n, latency: r(0.1, 0, n) })))).toMatchObject({ ok: false, reason: 'no-knee' });
    const k = latencyKnee(ns.map((n) => ({ n, latency: r(0.02, 0.01, n) })));
    expect(k.ok).toBe(true);
    expect(k.ok && k.n).toBe(16);
  });

  it('repeats are averaged; too few points, flat or falling latency have no knee', () => {
    expect(latencyKnee([{ n: 1, latency: 1 }, { n: 2, latency: 5 }])).toMatchObject({ ok: false, reason: 'too-few-points' });
    expect(latencyKnee([1, 2, 4].map((n) => ({ n, latency: 3 })))).toMatchObject({ ok: false, reason: 'no-knee' });
    expect(latencyKnee([1, 2, 4].map((n) => ({ n, latency: 10 / n })))).toMatchObject({ ok: false, reason: 'no-knee' });
    const k = latencyKnee([
      { n: 1, latency: 1 },
      { n: 2, latency: 1.1 },
      { n: 2, latency: 1.3 },
      { n: 4, latency: 9 },
    ]);
    expect(k).toMatchObject({ ok: true, n: 2 });
    expect(k.ok && k.latency).toBeCloseTo(1.2, 9);
  });
});
