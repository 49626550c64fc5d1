import { describe, expect, it } from 'vitest';
import { DEFAULT_MIX, validityOf, validityOfResult, type TproccMix } from '@sledge/protocol';
import {
  consistencyCheck,
  errorsCheck,
  foreignLoadCheck,
  mixCheck,
  nopmCheck,
  rollbackCheck,
  runChecks,
  saturationCheck,
  slope,
  standardMixCheck,
  steadyCheck,
  uncountedChecks,
} from '../src/workloads/tprocc/validity.js';

/** TPROC-C's validity checks on synthetic inputs: each one's pass, warn and fail (or skip) bands. */
describe('TPROC-C validity checks', () => {
  it('new-order rollback share: 1% passes, 1.8% of 10000 warns, 0% or 5% fails, too few new orders skip', () => {
    expect(rollbackCheck(10_000, 100)).toMatchObject({ id: 'neworder-rollbacks', status: 'pass' });
    expect(rollbackCheck(10_000, 100).detail).toContain('100 of 10000 new orders rolled back (1.00%)');
    expect(rollbackCheck(10_000, 180).status).toBe('warn');
    expect(rollbackCheck(10_000, 0).status).toBe('fail');
    expect(rollbackCheck(10_000, 500).status).toBe('fail');
    expect(rollbackCheck(100, 1).status).toBe('skip');
    // A small window widens the band: 2 of 300 (0.67%) is within 3 standard errors.
    expect(rollbackCheck(300, 2).status).toBe('pass');
  });

  const counts = (mix: TproccMix, n: number) => {
    const w = Object.values(mix).reduce((a, b) => a + b, 0);
    return Object.fromEntries(Object.entries(mix).map(([t, v]) => [t, Math.round((v / w) * n)]));
  };

  it('achieved mix: the configured shares pass, a drifted type warns, a missing type fails, few transactions skip', () => {
    expect(mixCheck(DEFAULT_MIX, counts(DEFAULT_MIX, 23_000)).status).toBe('pass');
    const drift = { ...counts(DEFAULT_MIX, 23_000), neworder: 10_000 + 500, payment: 10_000 - 500 };
    const w = mixCheck(DEFAULT_MIX, drift);
    expect(w.status).toBe('warn');
    expect(w.detail).toContain('neworder 45.7% (configured 43.5%, warn)');
    expect(mixCheck(DEFAULT_MIX, { ...counts(DEFAULT_MIX, 23_000), delivery: 0 }).status).toBe('fail');
    expect(mixCheck(DEFAULT_MIX, counts(DEFAULT_MIX, 50)).status).toBe('skip');
    const custom = { neworder: 1, payment: 1, delivery: 0, stocklevel: 0, orderstatus: 0 };
    expect(mixCheck(custom, { neworder: 5000, payment: 5000, delivery: 0, stocklevel: 0, orderstatus: 0 }).status).toBe('pass');
  });

  it('NOPM against the client: equal passes, 6% off warns, 30% above fails naming another run', () => {
    expect(nopmCheck(1000, 1000, 4, 5).status).toBe('pass');
    expect(nopmCheck(1060, 1000, 4, 5).status).toBe('warn');
    const f = nopmCheck(1300, 1000, 4, 5);
    expect(f.status).toBe('fail');
    expect(f.detail).toContain('another run on the same schema');
    expect(nopmCheck(700, 1000, 4, 5).detail).toContain('fewer orders than the client committed');
    expect(nopmCheck(0, 0, 1, 1).status).toBe('skip');
  });

  it('foreign load: engine TPM near the client passes, 2x warns "another workload", client-side TPM skips, a reset warns', () => {
    const engine = { tpm: 2300, tpmSource: 'engine' as const };
    expect(foreignLoadCheck(engine, 2200).status).toBe('pass');
    const w = foreignLoadCheck({ ...engine, tpm: 4600 }, 2200);
    expect(w.status).toBe('warn');
    expect(w.detail).toMatch(/engine TPM 4600 vs 2200 client commits\+rollbacks per minute \(2\.09×\): another workload was on the server/);
    // Small absolute differences are not foreign load: 100 vs 60 TPM.
    expect(foreignLoadCheck({ ...engine, tpm: 100 }, 60).status).toBe('pass');
    expect(foreignLoadCheck({ ...engine, tpm: 1000 }, 2200).status).toBe('warn');
    expect(foreignLoadCheck({ tpm: 2300, tpmSource: 'client' }, 2300).status).toBe('skip');
    expect(foreignLoadCheck({ ...engine, tpmCounterReset: true }, 2300).status).toBe('warn');
    // Across a reset the engine TPM is a lower bound: above the band it still names the foreign load, else it cannot judge.
    expect(foreignLoadCheck({ ...engine, tpm: 4600, tpmCounterReset: true }, 2200).detail).toMatch(/\(2\.09×\), a lower bound \(.*reset.*\): another workload was on the server/);
    expect(foreignLoadCheck({ ...engine, tpm: 2300, tpmCounterReset: true }, 2200)).toMatchObject({ status: 'warn', detail: expect.stringMatching(/cannot be compared/) });
    expect(foreignLoadCheck({ ...engine, tpm: 2300, tpmCounterReset: true }, 2200).detail).not.toMatch(/another workload/);
  });

  it('client saturation: one core per worker warns, half passes; replicas and embedded engines skip', () => {
    // 4 workers on 8 cores, 60 s: 3.8 cores used = 95% of 4.
    expect(saturationCheck(3.8 * 60_000, 60, 4, 8, false).status).toBe('warn');
    expect(saturationCheck(2 * 60_000, 60, 4, 8, false)).toMatchObject({ status: 'pass', detail: expect.stringContaining('client CPU 2.00 cores over the window, 50% of 4') });
    // Capacity is min(workers, cores): 8 workers on 2 cores saturate at 2 cores.
    expect(saturationCheck(1.9 * 60_000, 60, 8, 2, false).status).toBe('warn');
    expect(saturationCheck(undefined, 60, 4, 8, false).status).toBe('skip');
    expect(saturationCheck(60_000, 60, 1, 8, true).status).toBe('skip');
  });

  it('slope: a least-squares fit recovers a known line', () => {
    const f = slope([0, 1, 2, 3, 4], [10, 12, 14, 16, 18]);
    expect(f.slope).toBeCloseTo(2, 10);
    expect(f.mean).toBe(14);
    expect(f.se).toBeCloseTo(0, 10);
  });

  const series = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => ({ ts: i * 10_000, nopm: f(i) }));

  it('steady state: flat noise passes, a 20% climb warns, a halving fails, too few samples skip', () => {
    const noise = [3, -2, 4, -5, 1, 2, -3, 0, 5, -4, 2, -1];
    expect(steadyCheck(series(12, (i) => 1000 + noise[i]!)).status).toBe('pass');
    const climb = steadyCheck(series(12, (i) => 1000 + (i * 200) / 11 + noise[i]!));
    expect(climb.status).toBe('warn');
    expect(climb.detail).toContain('significant');
    expect(steadyCheck(series(12, (i) => 1000 - (i * 500) / 11)).status).toBe('fail');
    // A large trend that noise swamps is not significant: passes.
    const wild = [1000, 400, 1600, 300, 1700, 500, 1500, 600, 1400, 1300, 700, 1200];
    expect(steadyCheck(series(12, (i) => wild[i]!)).status).toBe('pass');
    expect(steadyCheck(series(3, () => 1000)).status).toBe('skip');
  });

  it('errors: none passes, under 1% warns, more fails', () => {
    expect(errorsCheck(0, 1000).status).toBe('pass');
    expect(errorsCheck(5, 1000).status).toBe('warn');
    expect(errorsCheck(50, 1000).status).toBe('fail');
  });

  it('consistency: not requested skips, all held passes, a failed condition fails naming it, an error fails', () => {
    expect(consistencyCheck(undefined).status).toBe('skip');
    expect(consistencyCheck([{ name: 'C1', ok: true, detail: 'ok' }]).status).toBe('pass');
    const f = consistencyCheck([
      { name: 'C1', ok: true, detail: 'ok' },
      { name: 'C2: d_next_o_id', ok: false, detail: 'district 3 differs' },
    ]);
    expect(f).toMatchObject({ status: 'fail', detail: '1 of 2 checks failed: C2: d_next_o_id (district 3 differs)' });
    expect(consistencyCheck(undefined, 'connection refused').status).toBe('fail');
  });

  it('uncounted shares are skipped with the reason, never faked', () => {
    const u = uncountedChecks();
    expect(u.map((c) => c.id)).toEqual(['order-lines', 'remote-lines', 'remote-payments', 'by-name']);
    expect(u.every((c) => c.status === 'skip' && c.detail.includes('not counted'))).toBe(true);
  });

  it("standard mix: HammerDB's 10/10/1/1/1 (in proportion) passes, any other mix warns that NOPM is not comparable", () => {
    expect(standardMixCheck(DEFAULT_MIX)).toMatchObject({ id: 'standard-mix', status: 'pass' });
    expect(standardMixCheck({ neworder: 30, payment: 30, delivery: 3, stocklevel: 3, orderstatus: 3 }).status).toBe('pass');
    const only = standardMixCheck({ neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 });
    expect(only.status).toBe('warn');
    expect(only.detail).toBe("the mix (neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0) is not HammerDB's standard 10/10/1/1/1: NOPM and TPM are not comparable with HammerDB's standard runs, only with runs of the same mix");
  });

  it('overall status: the worst non-skipped check; a result without a verdict has none', () => {
    const c = (status: 'pass' | 'warn' | 'fail' | 'skip') => ({ id: status, title: status, status, detail: '' });
    expect(validityOf([c('pass'), c('skip')]).status).toBe('pass');
    expect(validityOf([c('pass'), c('warn'), c('skip')]).status).toBe('warn');
    expect(validityOf([c('warn'), c('fail')]).status).toBe('fail');
    expect(validityOfResult({ nopm: 1 })).toBeUndefined();
    expect(validityOfResult(undefined)).toBeUndefined();
    expect(validityOfResult({ validity: validityOf([c('pass')]) })?.status).toBe('pass');
  });

  it('runChecks: a clean synthetic window passes every measured check', () => {
    const ops = ['neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus'];
    const perOp = [10_000, 10_000, 1000, 1000, 1000];
    const checks = runChecks(DEFAULT_MIX, {
      result: { nopm: 1980, tpm: 4700, tpmSource: 'engine', activeVus: 4, line: '', measuredSeconds: 300 },
      ops,
      window: { seconds: 300, commits: 22_900, rollbacks: 100, errors: 0, perOp, rollbacksPerOp: [100, 0, 0, 0, 0] },
      client: { cpuMs: 60_000, workers: 4, cores: 8 },
      vus: 4,
      features: { storedProcedures: true, tpmSource: 'engine', bulkFormat: 'pg-text', asyncSessions: true, createsDatabase: true, partition: true },
      samples: series(30, (i) => 1980 + (i % 2 ? 5 : -5)),
    });
    const by = Object.fromEntries(checks.map((c) => [c.id, c.status]));
    expect(by).toEqual({
      'neworder-rollbacks': 'pass',
      mix: 'pass',
      'standard-mix': 'pass',
      'nopm-vs-client': 'pass',
      'foreign-load': 'pass',
      'client-saturation': 'pass',
      'steady-state': 'pass',
      errors: 'pass',
      'order-lines': 'skip',
      'remote-lines': 'skip',
      'remote-payments': 'skip',
      'by-name': 'skip',
    });
  });
});
