/**
 * The Universal Scalability Law (Gunther): throughput at concurrency N is
 *
 *   X(N) = X1·N / (1 + σ(N−1) + κ·N(N−1))
 *
 * X1 the throughput of one user, σ ≥ 0 contention (the serialised share of
 * the work: queueing on a lock, a latch, a log flush), κ ≥ 0 coherency (the
 * cost of keeping shared state consistent, growing with every pair of users).
 * With κ > 0 throughput peaks at N* = sqrt((1−σ)/κ) and then falls; with κ = 0
 * it rises towards X1/σ (Amdahl); with σ = κ = 0 it is linear.
 *
 * Fit (docs/scalability.md): a start from the linearised form
 * N/X = a + b(N−1) + c·N(N−1) (ordinary least squares; X1 = 1/a, σ = b/a,
 * κ = c/a, clamped at 0), then Levenberg-Marquardt on the squared throughput
 * residuals with σ and κ projected onto ≥ 0. Confidence bands are the delta
 * method on the covariance s²(JᵀJ)⁻¹ of the free parameters at the optimum
 * (s² = SSE/(m−p)), with Student's t at 95%; they need more points than free
 * parameters. Pure arithmetic: no I/O, no randomness.
 */

export interface UslPoint {
  /** Concurrency: active virtual users (> 0). */
  n: number;
  /** Throughput at n (≥ 0; NOPM or TPM). */
  x: number;
}

export interface UslBandPoint {
  n: number;
  x: number;
  /** 95% confidence band of the fitted mean; absent when the fit has no residual degrees of freedom. */
  lo?: number;
  hi?: number;
}

export interface UslFit {
  ok: true;
  x1: number;
  sigma: number;
  kappa: number;
  /** Standard errors (0 for a parameter held at its bound of 0); absent without residual degrees of freedom. */
  se?: { x1: number; sigma: number; kappa: number };
  /** Coefficient of determination of the throughput fit (1 − SSE/SST). */
  r2: number;
  /** Points fitted, distinct VU counts among them, residual degrees of freedom. */
  points: number;
  distinctN: number;
  dof: number;
  /**
   * The predicted peak: N* = sqrt((1−σ)/κ) and X(N*), with a 95% interval of N*
   * when standard errors exist. Null when κ = 0 (no retrograde region).
   */
  peak: { n: number; x: number; nLo?: number; nHi?: number } | null;
  /** With κ = 0 and σ > 0 the ceiling X1/σ that throughput approaches; null otherwise. */
  ceiling: number | null;
  /** The fitted curve (and band) from N = 1 to past the largest of peak and measured N. */
  curve: UslBandPoint[];
  iterations: number;
}

export type UslFailure =
  | { ok: false; reason: 'too-few-points'; message: string }
  | { ok: false; reason: 'invalid-point'; message: string; index: number }
  | { ok: false; reason: 'flat-throughput'; message: string };

export type UslResult = UslFit | UslFailure;

type Params = [number, number, number];

const model = (p: Params, n: number): number => (p[0] * n) / (1 + p[1] * (n - 1) + p[2] * n * (n - 1));

/** ∂X/∂(X1, σ, κ) at n. */
function gradient(p: Params, n: number): Params {
  const d = 1 + p[1] * (n - 1) + p[2] * n * (n - 1);
  const f = (p[0] * n) / (d * d);
  return [n / d, -f * (n - 1), -f * n * (n - 1)];
}

/** Solve A·x = b (square, Gaussian elimination with partial pivoting); null when singular. */
export function solveLinear(a: number[][], b: number[]): number[] | null {
  const k = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    const scale = Math.max(...m.map((row) => Math.abs(row[c]!)));
    if (!(Math.abs(m[piv]![c]!) > 1e-12 * (scale || 1))) return null;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = c; j <= k; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  const out = m.map((row, i) => row[k]! / row[i]!);
  return out.every(Number.isFinite) ? out : null;
}

/** Inverse of a small symmetric positive-definite matrix; null when singular. */
function invert(a: number[][]): number[][] | null {
  const k = a.length;
  const cols: number[][] = [];
  for (let i = 0; i < k; i++) {
    const col = solveLinear(a, Array.from({ length: k }, (_, j) => (j === i ? 1 : 0)));
    if (!col) return null;
    cols.push(col);
  }
  return Array.from({ length: k }, (_, r) => Array.from({ length: k }, (_, c) => cols[c]![r]!));
}

const sse = (p: Params, pts: readonly UslPoint[]): number => pts.reduce((s, q) => s + (q.x - model(p, q.n)) ** 2, 0);

/** The linearised start: N/X = a + b(N−1) + c·N(N−1) by least squares (points with X > 0). */
function linearStart(pts: readonly UslPoint[]): Params | null {
  const rows = pts.filter((p) => p.x > 0).map((p) => ({ f: [1, p.n - 1, p.n * (p.n - 1)], y: p.n / p.x }));
  if (rows.length < 3) return null;
  const ata = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((s, r) => s + r.f[i]! * r.f[j]!, 0)));
  const aty = [0, 1, 2].map((i) => rows.reduce((s, r) => s + r.f[i]! * r.y, 0));
  const sol = solveLinear(ata, aty);
  if (!sol || !(sol[0]! > 0)) return null;
  return [1 / sol[0]!, Math.max(0, sol[1]! / sol[0]!), Math.max(0, sol[2]! / sol[0]!)];
}

/** Levenberg-Marquardt (Marquardt's diagonal scaling) with σ, κ projected onto ≥ 0. */
function levenbergMarquardt(start: Params, pts: readonly UslPoint[]): { p: Params; sse: number; iterations: number } {
  let p: Params = [...start];
  let cur = sse(p, pts);
  let lambda = 1e-3;
  let iterations = 0;
  for (; iterations < 500; iterations++) {
    const jtj = [0, 1, 2].map(() => [0, 0, 0]);
    const jtr = [0, 0, 0];
    for (const q of pts) {
      const g = gradient(p, q.n);
      const r = q.x - model(p, q.n);
      for (let i = 0; i < 3; i++) {
        jtr[i]! += g[i]! * r;
        for (let j = 0; j < 3; j++) jtj[i]![j]! += g[i]! * g[j]!;
      }
    }
    // A parameter at its bound whose gradient pushes it below 0 stays there (held fixed this step).
    const free = [true, !(p[1] <= 0 && jtr[1]! <= 0), !(p[2] <= 0 && jtr[2]! <= 0)];
    const idx = [0, 1, 2].filter((i) => free[i]);
    let improved = false;
    while (lambda < 1e16) {
      const a = idx.map((i) => idx.map((j) => jtj[i]![j]! + (i === j ? lambda * (jtj[i]![i]! || 1e-30) : 0)));
      const step = solveLinear(
        a,
        idx.map((i) => jtr[i]!),
      );
      if (step) {
        const next: Params = [...p];
        idx.forEach((i, k) => (next[i as 0 | 1 | 2] += step[k]!));
        next[1] = Math.max(0, next[1]);
        next[2] = Math.max(0, next[2]);
        const s = next[0] > 0 ? sse(next, pts) : Infinity;
        if (s < cur) {
          const moved = Math.max(...[0, 1, 2].map((i) => Math.abs(next[i]! - p[i]!) / Math.max(Math.abs(p[i]!), 1e-12)));
          const gain = (cur - s) / Math.max(cur, 1e-300);
          p = next;
          cur = s;
          lambda = Math.max(lambda / 10, 1e-12);
          improved = true;
          if (moved < 1e-12 || gain < 1e-15) return { p, sse: cur, iterations: iterations + 1 };
          break;
        }
      }
      lambda *= 10;
    }
    if (!improved) break;
  }
  return { p, sse: cur, iterations };
}

/** Student's t quantile at 97.5% (two-sided 95%) for dof degrees of freedom. */
export function t975(dof: number): number {
  const table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
  if (dof >= 1 && dof <= 30) return table[Math.floor(dof) - 1]!;
  // Cornish-Fisher's first correction to the normal quantile: z + (z³ + z)/(4·dof).
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * dof);
}

/**
 * Fit the USL to measured (N, X) points. Needs 3 or more distinct N, every
 * N > 0 and X ≥ 0 finite, and throughput that is not the same everywhere.
 * Returns a typed failure otherwise, never NaN.
 */
export function fitUsl(points: readonly UslPoint[]): UslResult {
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (!Number.isFinite(p.n) || p.n <= 0) return { ok: false, reason: 'invalid-point', index: i, message: `point ${i}: concurrency must be a finite number > 0, got ${p.n}` };
    if (!Number.isFinite(p.x) || p.x < 0) return { ok: false, reason: 'invalid-point', index: i, message: `point ${i}: throughput must be a finite number ≥ 0, got ${p.x}` };
  }
  const distinctN = new Set(points.map((p) => p.n)).size;
  if (distinctN < 3) return { ok: false, reason: 'too-few-points', message: `a scalability fit needs throughput at 3 or more different VU counts, got ${distinctN}` };
  const mean = points.reduce((s, p) => s + p.x, 0) / points.length;
  const sst = points.reduce((s, p) => s + (p.x - mean) ** 2, 0);
  if (!(sst > 1e-18 * Math.max(1, mean * mean))) {
    return { ok: false, reason: 'flat-throughput', message: `throughput is ${mean} at every VU count: nothing scales, so there is no curve to fit` };
  }

  // Starts: the linearised fit, and a no-contention line through the best per-user rate; keep the better optimum.
  const perUser = Math.max(...points.map((p) => p.x / p.n));
  const starts = [linearStart(points), [perUser, 0, 0] as Params, [perUser, 0.1, 0.001] as Params].filter((s): s is Params => s !== null);
  let best: { p: Params; sse: number; iterations: number } | undefined;
  for (const s of starts) {
    const r = levenbergMarquardt(s, points);
    if (!best || r.sse < best.sse) best = r;
  }
  const { p, iterations } = best!;
  // A term worth less than a millionth of the denominator at the largest N is rounding, not a finding: 0.
  const nMax = Math.max(...points.map((q) => q.n));
  const denom = 1 + p[1] * (nMax - 1) + p[2] * nMax * (nMax - 1);
  if (p[1] * (nMax - 1) < 1e-6 * denom) p[1] = 0;
  if (p[2] * nMax * (nMax - 1) < 1e-6 * denom) p[2] = 0;
  const fitted = sse(p, points);
  const [x1, sigma, kappa] = p;
  const r2 = 1 - fitted / sst;

  // Covariance of the free parameters (those not held at 0).
  const free = [0, 1, 2].filter((i) => i === 0 || p[i]! > 0);
  const dof = points.length - free.length;
  let cov: number[][] | null = null;
  if (dof > 0) {
    const s2 = fitted / dof;
    const jtj = free.map((i) => free.map((j) => points.reduce((s, q) => s + gradient(p, q.n)[i]! * gradient(p, q.n)[j]!, 0)));
    const inv = invert(jtj);
    if (inv) {
      cov = [0, 1, 2].map(() => [0, 0, 0]);
      free.forEach((i, a) => free.forEach((j, b) => (cov![i]![j] = inv[a]![b]! * s2)));
    }
  }
  const t = dof > 0 ? t975(dof) : 0;
  const se = cov ? { x1: Math.sqrt(Math.max(0, cov[0]![0]!)), sigma: Math.sqrt(Math.max(0, cov[1]![1]!)), kappa: Math.sqrt(Math.max(0, cov[2]![2]!)) } : undefined;

  let peak: UslFit['peak'] = null;
  if (kappa > 0) {
    const n = sigma < 1 ? Math.sqrt((1 - sigma) / kappa) : 1;
    peak = { n, x: model(p, n) };
    if (cov && sigma < 1) {
      // Delta method: ∂N*/∂σ = −1/(2κN*), ∂N*/∂κ = −N*/(2κ).
      const g = [0, -1 / (2 * kappa * n), -n / (2 * kappa)];
      const v = quad(g, cov);
      peak.nLo = Math.max(1, n - t * Math.sqrt(v));
      peak.nHi = n + t * Math.sqrt(v);
    }
  }
  const ceiling = kappa === 0 && sigma > 0 ? x1 / sigma : null;

  const top = Math.max(nMax * 1.25, peak ? Math.min(peak.n * 1.5, nMax * 4) : 0, 2);
  const steps = 60;
  const curve: UslBandPoint[] = [];
  for (let i = 0; i <= steps; i++) {
    const n = 1 + ((top - 1) * i) / steps;
    const x = model(p, n);
    const pt: UslBandPoint = { n: round6(n), x: round6(x) };
    if (cov) {
      const half = t * Math.sqrt(quad(gradient(p, n), cov));
      pt.lo = round6(Math.max(0, x - half));
      pt.hi = round6(x + half);
    }
    curve.push(pt);
  }
  return { ok: true, x1, sigma, kappa, ...(se ? { se } : {}), r2, points: points.length, distinctN, dof, peak, ceiling, curve, iterations };
}

const quad = (g: readonly number[], c: number[][]): number => Math.max(0, g.reduce((s, gi, i) => s + gi * g.reduce((u, gj, j) => u + c[i]![j]! * gj, 0), 0));
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export interface LatencyPoint {
  n: number;
  /** Latency at n (any unit, e.g. the new-order p95 in ms). */
  latency: number;
}

export type LatencyKnee = { ok: true; n: number; latency: number; depth: number } | { ok: false; reason: 'too-few-points' | 'no-knee'; message: string };

/**
 * The latency knee: the VU count after which latency grows faster than linearly.
 *
 * Definition (the discrete point of maximum curvature, Satopää et al.'s
 * "Kneedle" for a rising convex curve): average repeats at the same N, sort by
 * N, scale N and latency each onto [0, 1]
 * from the first point to the last (n̂ = (N − N₁)/(N_last − N₁),
 * l̂ = (L − L₁)/(L_last − L₁)); the knee is
 * the interior point with the largest n̂ − l̂, its depth below the straight
 * line from the first to the last point. A knee needs a depth of at least
 * `minDepth` (default 0.05, 5% of the range): latency that rises linearly
 * (the USL with κ = 0 gives N/X linear in N), falls, or bends the other way
 * has no knee. Needs 3 or more distinct N.
 */
export function latencyKnee(points: readonly LatencyPoint[], minDepth = 0.05): LatencyKnee {
  const byN = new Map<number, number[]>();
  for (const p of points) if (Number.isFinite(p.n) && Number.isFinite(p.latency)) byN.set(p.n, [...(byN.get(p.n) ?? []), p.latency]);
  const pts = [...byN.entries()].map(([n, ls]) => ({ n, l: ls.reduce((a, b) => a + b, 0) / ls.length })).sort((a, b) => a.n - b.n);
  if (pts.length < 3) return { ok: false, reason: 'too-few-points', message: `a latency knee needs latency at 3 or more different VU counts, got ${pts.length}` };
  const n0 = pts[0]!.n;
  const n1 = pts[pts.length - 1]!.n;
  const l0 = pts[0]!.l;
  const l1 = pts[pts.length - 1]!.l;
  if (!(l1 > l0)) return { ok: false, reason: 'no-knee', message: 'latency at the most VUs is no higher than at the fewest' };
  let best: { n: number; latency: number; depth: number } | undefined;
  for (const p of pts.slice(1, -1)) {
    const depth = (p.n - n0) / (n1 - n0) - (p.l - l0) / (l1 - l0);
    if (!best || depth > best.depth) best = { n: p.n, latency: p.l, depth };
  }
  if (!best || best.depth < minDepth) return { ok: false, reason: 'no-knee', message: 'latency grows no faster than linearly with VUs over the measured range' };
  return { ok: true, n: best.n, latency: best.latency, depth: Math.round(best.depth * 1000) / 1000 };
}
