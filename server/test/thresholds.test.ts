import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobStore } from '@sledge/jobstore';
import { parseThreshold, workloadDef, type Job, type TimingRow } from '@sledge/protocol';
import { evaluateThreshold, evaluateThresholds } from '../dist/engine/thresholds.js';
import { assertBaseline, evaluateBaseline } from '../dist/engine/baseline.js';
import { judgeJob } from '../dist/engine/judge.js';
import { jobsDiff, signedRatio } from '../dist/engine/baseline.js';
import { createHistogram } from 'node:perf_hooks';
import { abortingThreshold, clockText } from '../dist/runner/abort-watch.js';
import { windowRows } from '../dist/runner/timings.js';
import { makeApp } from './helpers.js';

const tprocc = workloadDef('tprocc')!;
const tproch = workloadDef('tproch')!;

const row = (proc: string, over: Partial<TimingRow> = {}): TimingRow => ({
  proc,
  vu: 0,
  calls: 100,
  minMs: 1,
  avgMs: 4,
  maxMs: 30,
  totalMs: 400,
  p25Ms: 2,
  p50Ms: 3,
  p75Ms: 5,
  p95Ms: 12,
  p99Ms: 20,
  sdMs: 2,
  ratioPct: 40,
  elapsedMs: 1000,
  ...over,
});
const RESULT = { nopm: 1200, tpm: 3000, activeVus: 2, tpmSource: 'engine', line: 'TEST RESULT', measuredSeconds: 60, transactions: 990, clientCpuMsPer1000Tx: 55.5 };
const ev = (expr: string, data: Parameters<typeof evaluateThreshold>[1]) => evaluateThreshold(parseThreshold(expr, data.def), data);

describe('threshold evaluation', () => {
  const data = { def: tprocc, result: RESULT, timings: [row('NEWORD'), row('PAYMENT', { histogram: [[50, 3], [90, 7.5], [99, 19]] as [number, number][] })] };

  it('result fields against the bound, each operator', () => {
    expect(ev('nopm>1000', data)).toMatchObject({ metric: 'nopm', actual: 1200, limit: 1000, unit: '', ok: true, message: 'nopm 1200 > 1000: pass' });
    expect(ev('tpm<3000', data)).toMatchObject({ ok: false, message: 'tpm 3000 is not < 3000: fail' });
    expect(ev('tpm<=3000', data).ok).toBe(true);
    expect(ev('activeVus==2', data).ok).toBe(true);
    expect(ev('clientCpuMsPer1000Tx<50', data)).toMatchObject({ actual: 55.5, ok: false });
  });

  it('latency from the time profile, units converted to ms, p90 from the histogram', () => {
    expect(ev('p95(neword)<50ms', data)).toMatchObject({ metric: 'p95(neworder)', actual: 12, limit: 50, unit: 'ms', ok: true });
    expect(ev('p95(neworder)<0.01s', data)).toMatchObject({ limit: 10, ok: false, message: 'p95(neworder) 12 ms is not < 10 ms: fail' });
    expect(ev('max(NEWORD)<=30000us', data)).toMatchObject({ actual: 30, limit: 30, ok: true });
    expect(ev('avg(neword)>=4', data).ok).toBe(true);
    expect(ev('p90(payment)<8ms', data)).toMatchObject({ actual: 7.5, ok: true });
    expect(ev('p90(neword)<8ms', data)).toMatchObject({ actual: null, ok: false });
  });

  it('a metric the job does not have fails and says so (never a silent pass)', () => {
    for (const expr of ['errors<1', 'retries<=10', 'error_rate<1%', 'p95(delivery)<50ms']) {
      const r = ev(expr, data);
      expect(r.ok, expr).toBe(false);
      expect(r.actual, expr).toBeNull();
      expect(r.message, expr).toContain('metric not available for this job');
    }
    expect(ev('p95(delivery)<50ms', data).message).toContain('no times for delivery');
    const noResult = ev('nopm>1', { def: tprocc, timings: [] });
    expect(noResult).toMatchObject({ ok: false, actual: null });
    expect(noResult.message).toContain('the job has no result');
  });

  it('errors and retries read a number or an object total; error_rate is errors over all attempts, in %', () => {
    const withErrors = { ...data, result: { ...RESULT, errors: { total: 10, byClass: { serialization: 10 } }, retries: 4 } };
    expect(ev('errors<=10', withErrors)).toMatchObject({ actual: 10, ok: true });
    expect(ev('retries<3', withErrors)).toMatchObject({ actual: 4, ok: false });
    const rate = ev('error_rate<1%', withErrors);
    expect(rate).toMatchObject({ metric: 'error_rate', actual: 1, unit: '%', ok: false });
    expect(ev('error_rate<=1', withErrors).ok).toBe(true);
  });

  it('TPROC-H: geomean in seconds, query latency from the result when there is no time profile', () => {
    const r = {
      geomean: 0.8,
      queries: [
        { stream: 0, set: 1, query: 5, position: 1, seconds: 0.2, rows: 1 },
        { stream: 1, set: 1, query: 5, position: 3, seconds: 0.6, rows: 1 },
        { stream: 1, set: 1, query: 6, position: 4, seconds: 9, rows: 0, error: 'timeout' },
      ],
      refreshes: [{ update: 1, rf1Seconds: 1.5, rf2Seconds: 0.5, orders: 15 }],
      errors: 1,
    };
    const d = { def: tproch, result: r, timings: [] };
    expect(ev('geomean<900ms', d)).toMatchObject({ actual: 0.8, limit: 0.9, unit: 's', ok: true });
    expect(ev('max(q5)<500ms', d)).toMatchObject({ actual: 600, ok: false });
    expect(ev('p50(q5)<=200ms', d)).toMatchObject({ actual: 200, ok: true });
    expect(ev('max(rf1)<2s', d)).toMatchObject({ actual: 1500, ok: true });
    expect(ev('max(q6)<1s', d)).toMatchObject({ actual: null, ok: false });
    expect(ev('errors==0', d)).toMatchObject({ actual: 1, ok: false });
  });

  it('evaluates a stored list in order', () => {
    expect(evaluateThresholds(['nopm>1', 'tpm<1'], data).map((r) => r.ok)).toEqual([true, false]);
  });
});

describe('baseline regression on stored jobs', () => {
  const store = JobStore.open(join(mkdtempSync(join(tmpdir(), 'thresholds-store-')), 'sledge.db'));
  afterAll(() => store.close());
  const stored = (result: Record<string, unknown> | undefined, over: { profileId?: number; status?: 'completed' | 'failed'; workload?: string } = {}): Job => {
    const j = store.createJob({ type: 'run', workload: over.workload ?? 'tprocc', engine: 'sqlite', config: {}, seed: 1, profileId: over.profileId ?? 0, clientVersion: 't' });
    store.updateJob(j.id, { status: 'connecting' });
    return store.updateJob(j.id, { status: over.status ?? 'completed', ...(result ? { result } : {}) });
  };
  const tc = (nopm: number, activeVus = 1) => ({ ...RESULT, nopm, activeVus });

  it('a job baseline compares the headline: 2.5% allowed by default, more fails', () => {
    const base = stored(tc(10000));
    const same = evaluateBaseline(store, stored(tc(9800)), { jobId: base.id, maxRegression: 0.025 });
    expect(same).toMatchObject({ metric: 'regression(nopm)', unit: '%', limit: 2.5, ok: true });
    expect(same.actual).toBeCloseTo(2, 6);
    const worse = evaluateBaseline(store, stored(tc(9700)), { jobId: base.id, maxRegression: 0.025 });
    expect(worse.ok).toBe(false);
    expect(worse.actual).toBeCloseTo(3, 6);
    expect(worse.message).toBe(`nopm 9700 vs 10000 in job ${base.id}: 3.00% worse, more than 2.50%: fail`);
    const better = evaluateBaseline(store, stored(tc(12000)), { jobId: base.id, maxRegression: 0 });
    expect(better).toMatchObject({ ok: true, actual: -20 });
    expect(evaluateBaseline(store, stored(tc(9700)), { jobId: base.id, maxRegression: 0.05 }).ok).toBe(true);
  });

  it('a lower-is-better headline (TPROC-H geomean) regresses when it grows', () => {
    const h = (geomean: number) => ({ geomean, mode: 'power', queries: [], refreshes: [], line: 'x' });
    const base = stored(h(1.0), { workload: 'tproch' });
    expect(evaluateBaseline(store, stored(h(1.02), { workload: 'tproch' }), { jobId: base.id, maxRegression: 0.025 }).ok).toBe(true);
    const slow = evaluateBaseline(store, stored(h(1.1), { workload: 'tproch' }), { jobId: base.id, maxRegression: 0.025 });
    expect(slow).toMatchObject({ metric: 'regression(geomean)', ok: false });
    expect(slow.actual).toBeCloseTo(10, 6);
  });

  it('a failed job (no result) fails its baseline check', () => {
    const base = stored(tc(10000));
    const r = evaluateBaseline(store, stored(undefined, { status: 'failed' }), { jobId: base.id, maxRegression: 0.025 });
    expect(r).toMatchObject({ ok: false, actual: null });
    expect(r.message).toContain('the job has no nopm');
  });

  it('profiles: HammerDB jobs diff over the matched active-VU counts only', () => {
    // Profile 11: 1, 2, 4 VUs; profile 12: 1, 2, 8 VUs. Matched: 1 and 2.
    for (const [v, n] of [[1, 1000], [2, 2000], [4, 9999]]) stored(tc(n!, v), { profileId: 11 });
    for (const [v, n] of [[1, 900], [8, 5]]) stored(tc(n!, v), { profileId: 12 });
    const last = stored(tc(1950, 2), { profileId: 12 });
    const r = evaluateBaseline(store, last, { profileId: 11, maxRegression: 0.025 });
    // mean_base = (1000 + 2000) / 2 = 1500, mean_comp = (900 + 1950) / 2 = 1425: ratio -0.05
    expect(r.ok).toBe(false);
    expect(r.actual).toBeCloseTo(5, 6);
    expect(r.message).toBe('Profiles compared (unweighted): matched=2, avg_base=1500, avg_comp=1425, diff -0.05 (5.00% worse), more than 2.50% worse: fail');
    expect(evaluateBaseline(store, last, { profileId: 11, maxRegression: 0.06 }).ok).toBe(true);
    // A job outside any profile is compared alone, at its own VU count.
    const alone = evaluateBaseline(store, stored(tc(1990, 2)), { profileId: 11, maxRegression: 0.025 });
    expect(alone).toMatchObject({ ok: true });
    expect(alone.message).toContain('matched=1, avg_base=2000, avg_comp=1990');
    const none = evaluateBaseline(store, stored(tc(1990, 16)), { profileId: 11, maxRegression: 0.025 });
    expect(none).toMatchObject({ ok: false, actual: null });
    expect(none.message).toContain('no active-VU count in common with profile 11 (it ran 1, 2, 4; this run 16)');
  });

  it('creation checks: the baseline job exists, has a result, is of the same workload; the profile has runs', () => {
    const msg = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        return `${(e as { field?: string }).field}: ${(e as Error).message}`;
      }
      return 'ok';
    };
    const ok = stored(tc(1));
    expect(msg(() => assertBaseline(store, { jobId: ok.id, maxRegression: 0.025 }, 'tprocc', 0))).toBe('ok');
    expect(msg(() => assertBaseline(store, { jobId: 'F'.repeat(24), maxRegression: 0.025 }, 'tprocc', 0))).toMatch(/^baseline\.jobId: .*not found/);
    expect(msg(() => assertBaseline(store, { jobId: ok.id, maxRegression: 0.025 }, 'tproch', 0))).toMatch(/same workload/);
    const failed = stored(undefined, { status: 'failed' });
    expect(msg(() => assertBaseline(store, { jobId: failed.id, maxRegression: 0.025 }, 'tprocc', 0))).toMatch(/has no result/);
    expect(msg(() => assertBaseline(store, { profileId: 99, maxRegression: 0.025 }, 'tprocc', 0))).toMatch(/^baseline\.profileId: .*profile 99 has no completed runs/);
    expect(msg(() => assertBaseline(store, { profileId: 11, maxRegression: 0.025 }, 'tprocc', 11))).toMatch(/own profile/);
    expect(msg(() => assertBaseline(store, { profileId: 11, maxRegression: 0.025 }, 'tproch', 0))).toMatch(/use baseline\.jobId/);
  });

  it('judgeJob: thresholds and baseline together, passed only when all hold', () => {
    const base = stored(tc(1000));
    const j = stored(tc(1100));
    expect(judgeJob(store, j, { thresholds: ['nopm>1000'], baseline: { jobId: base.id, maxRegression: 0.025 } }).passed).toBe(true);
    const ev2 = judgeJob(store, j, { thresholds: ['nopm>1000', 'errors<1'], baseline: { jobId: base.id, maxRegression: 0.025 } });
    expect(ev2.passed).toBe(false);
    expect(ev2.thresholdResults.map((r) => r.ok)).toEqual([true, false, true]);
  });
});

describe('jobs diff (HammerDB, unweighted)', () => {
  const p = (activeVus: number, nopm: number) => ({ jobId: 'x', engine: 'sqlite', createdAt: '', activeVus, nopm, tpm: 0 });

  it('signs the ratio with 2 decimals, 4 when 2 would show 0.00', () => {
    expect([signedRatio(0.05), signedRatio(-0.05), signedRatio(0.0031), signedRatio(-0.0031), signedRatio(0)]).toEqual(['+0.05', '-0.05', '+0.0031', '-0.0031', '0.00']);
  });

  it('means over the matched counts only', () => {
    expect(jobsDiff([p(1, 100), p(2, 200), p(4, 1)], [p(2, 210), p(1, 110), p(8, 9)])).toMatchObject({ matched: 2, activeVus: [1, 2], avgBase: 150, avgComp: 160, diff: '+0.07', line: 'Profiles compared (unweighted): matched=2, avg_base=150, avg_comp=160' });
    expect(jobsDiff([p(1, 100)], [p(2, 100)], 'profile 3')).toEqual({ missing: 'no active-VU count in common with profile 3 (it ran 1; this run 2)' });
  });

  it('GET /api/v1/profiles/:base/diff/:comp over stored profiles', async () => {
    const s = await makeApp();
    try {
      const put = (profileId: number, activeVus: number, nopm: number) => {
        const j = s.store.createJob({ type: 'run', workload: 'tprocc', engine: 'sqlite', config: {}, seed: 1, profileId, clientVersion: 't' });
        s.store.updateJob(j.id, { status: 'connecting' });
        s.store.updateJob(j.id, { status: 'completed', result: { ...RESULT, nopm, activeVus } });
      };
      put(1, 1, 1000);
      put(1, 2, 2000);
      put(2, 1, 1000);
      put(2, 2, 1940);
      put(3, 16, 5);
      const r = await s.app.inject({ method: 'GET', url: '/api/v1/profiles/1/diff/2' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ base: 1, comp: 2, matched: 2, activeVus: [1, 2], avgBase: 1500, avgComp: 1470, ratio: -0.02, diff: '-0.02', line: 'Profiles compared (unweighted): matched=2, avg_base=1500, avg_comp=1470', lines: ['Profiles compared (unweighted): matched=2, avg_base=1500, avg_comp=1470'] });
      const none = await s.app.inject({ method: 'GET', url: '/api/v1/profiles/1/diff/3' });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({ error: { field: 'comp', message: 'profiles 1 and 3: no active-VU count in common with profile 1 (it ran 1, 2; profile 3 ran 16)' } });
      expect((await s.app.inject({ method: 'GET', url: '/api/v1/profiles/1/diff/9' })).statusCode).toBe(404);
    } finally {
      await s.app.close();
    }
  });
});

describe(':abort thresholds judged on the running window', () => {
  /** A histogram of microseconds, as the VU workers record latency. */
  const hist = (...us: number[]) => {
    const h = createHistogram();
    for (const x of us) h.record(x);
    return h;
  };

  it('the window rows read as a stored time profile: calls, percentiles in ms, the report name', () => {
    const rows = windowRows({ neworder: hist(1000, 2000, 3000, 40_000), payment: hist() }, ['neworder', 'payment'], ['NEWORD', 'PAYMENT'], 5000);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ proc: 'NEWORD', vu: 0, calls: 4, elapsedMs: 5000 });
    expect(rows[0]!.p50Ms).toBeCloseTo(2, 1);
    expect(rows[0]!.maxMs).toBeCloseTo(40, 0);
    expect(rows[0]!.avgMs).toBeCloseTo(11.5, 0);
    expect(ev('p95(neword)<50ms', { def: tprocc, timings: rows }).ok).toBe(true);
    expect(ev('p95(neword)<10ms', { def: tprocc, timings: rows })).toMatchObject({ ok: false, metric: 'p95(neworder)' });
  });

  it('the first due condition that reads a value and fails stops the run; nothing to read yet does not', () => {
    const rows = windowRows({ neworder: hist(30_000, 31_000) }, ['neworder', 'payment'], ['NEWORD', 'PAYMENT'], 5000);
    const due = ['p95(payment)<1ms:abort', 'nopm>1:abort', 'p95(neword)<50ms:abort', 'p95(neword)<1ms:abort', 'p95(neword)<2ms:abort'].map((e) => parseThreshold(e, tprocc));
    // payment has no calls yet and no result is read: neither stops the run; the first failing latency does.
    expect(abortingThreshold(due, { def: tprocc, timings: rows })?.expr).toBe('p95(neword)<1ms:abort');
    expect(abortingThreshold(due.slice(0, 3), { def: tprocc, timings: rows })).toBeUndefined();
    // With a running result, a failed field condition stops it.
    expect(abortingThreshold(due.slice(0, 3), { def: tprocc, timings: rows, result: { ...RESULT, nopm: 0 } })?.condition).toBe('nopm>1');
  });

  it('the time of the abort reads mm:ss into the window', () => {
    expect([clockText(0), clockText(42.7), clockText(61), clockText(3600)]).toEqual(['00:00', '00:42', '01:01', '60:00']);
  });
});
