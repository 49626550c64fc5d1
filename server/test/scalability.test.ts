import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AshSample, ProfileScalability, TimingRow } from '@sledge/protocol';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * The scalability explainer on stored jobs (no database): a profile whose
 * NOPM follows a known USL curve, whose new-order p95 bends upwards after
 * 8 VUs, and whose ASH moves from CPU to a row lock as VUs grow.
 * GET /profiles/:id/scalability fits σ and κ, finds the knee and names the
 * lock event; a profile with runs at fewer than 3 VU counts is a 409.
 */
const usl = (n: number) => (2000 * n) / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1));
const p95 = (n: number) => (n <= 8 ? 4 + 0.2 * n : 5.6 + 3 * (n - 8));
/** The share of sessions waiting on a row lock (transactionid) grows with VUs: 10% at 1 VU, 60% at 32; the rest are on CPU. */
const lockShare = (n: number) => 0.1 * (Math.log2(n) + 1);

const timing = (proc: string, p95Ms: number): TimingRow => ({ proc, vu: 0, calls: 100, minMs: 1, avgMs: p95Ms / 2, maxMs: p95Ms * 2, totalMs: 100, p25Ms: 1, p50Ms: 2, p75Ms: 3, p95Ms, p99Ms: p95Ms * 1.5, sdMs: 1, ratioPct: 40, elapsedMs: 1000 });

describe('GET /profiles/:id/scalability', () => {
  let s: SledgeApp;
  const profileId = 4242;
  const ids: string[] = [];

  const storedRun = (profile: number, vus: number, nopm: number, ash: boolean): string => {
    const j = s.store.createJob({ type: 'run', workload: 'tprocc', engine: 'postgresql', config: { metrics: { ashScope: 'database' } }, seed: 1, profileId: profile, clientVersion: 't' });
    s.store.updateJob(j.id, { status: 'connecting' });
    s.store.setTimings(j.id, [timing('NEWORD', p95(vus)), timing('PAYMENT', 2)]);
    if (ash) {
      const samples: AshSample[] = [];
      const t0 = 1_700_000_000_000;
      for (let sec = 0; sec < 20; sec++) {
        const locked = Math.round(vus * lockShare(vus) * 10);
        for (let v = 0; v < vus * 10; v++) {
          samples.push(v < locked ? { ts: t0 + sec * 1000, session: `s${v}`, vu: v, waitClass: 'Lock', event: 'transactionid', weight: 0.1 } : { ts: t0 + sec * 1000, session: `s${v}`, vu: v, waitClass: 'CPU', event: 'CPU', weight: 0.1 });
        }
      }
      // Before the measured window (rampup): IO waits that must not count.
      for (let sec = 1; sec <= 3; sec++) samples.push({ ts: t0 - sec * 1000, session: 's0', vu: 0, waitClass: 'IO', event: 'DataFileRead' });
      s.store.appendMetrics(
        j.id,
        'ash',
        samples.map((x) => ({ ts: x.ts, data: x })),
      );
      s.store.appendMetrics(j.id, 'phase', [
        { ts: t0 - 3000, data: { ts: t0 - 3000, label: 'rampup' } },
        { ts: t0, data: { ts: t0, label: 'measuring' } },
        { ts: t0 + 20_000, data: { ts: t0 + 20_000, label: 'stopping' } },
      ]);
    }
    s.store.updateJob(j.id, { status: 'completed', result: { nopm, tpm: nopm * 2.3, activeVus: vus, tpmSource: 'engine', line: 'TEST RESULT', measuredSeconds: 20, transactions: 100, clientCpuMsPer1000Tx: 40 + vus } });
    return j.id;
  };

  beforeAll(async () => {
    s = await makeApp();
    for (const n of [1, 2, 4, 8, 16, 32]) ids.push(storedRun(profileId, n, usl(n), true));
    // A repeat at 8 VUs: the fit uses both runs, the step averages them.
    ids.push(storedRun(profileId, 8, usl(8), true));
    storedRun(7, 1, 100, false);
    storedRun(7, 2, 190, false);
  });
  afterAll(async () => s?.app.close());

  it('fits the USL, finds the latency knee and names the wait that grew', async () => {
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/profiles/${profileId}/scalability` });
    expect(r.statusCode, r.body).toBe(200);
    const b = JSON.parse(r.body) as ProfileScalability;
    expect(b).toMatchObject({ profileId, engine: 'postgresql', metric: 'nopm', latencyMetric: 'p95(neworder)' });
    expect(b.steps.map((x) => x.vus)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(b.steps.find((x) => x.vus === 8)!.jobIds).toHaveLength(2);
    expect(b.fit!.points).toBe(7);
    expect(Math.abs(b.fit!.sigma - 0.05) / 0.05).toBeLessThan(0.01);
    expect(Math.abs(b.fit!.kappa - 0.002) / 0.002).toBeLessThan(0.01);
    expect(b.fit!.peak!.n).toBeCloseTo(Math.sqrt(0.95 / 0.002), 1);
    expect(b.knee).toMatchObject({ vus: 8 });
    expect(b.knee!.latencyMs).toBeCloseTo(p95(8), 6);
    expect(b.steps[0]).toMatchObject({ latencyMs: p95(1), clientCpuMsPer1000Tx: 41 });
    // ASH: 1 VU is 90% CPU and 10% Lock; 32 VUs are 40% CPU and 60% Lock.
    const cls = (step: number, c: string) => b.steps[step]!.waits.find((w) => w.kind === 'class' && w.name === c)?.pct;
    expect(cls(0, 'CPU')).toBeCloseTo(90, 6);
    // Only the measured window counts: the rampup's IO waits are left out.
    expect(b.steps.every((x) => !x.waits.some((w) => w.waitClass === 'IO'))).toBe(true);
    expect(cls(5, 'Lock')).toBeCloseTo(60, 6);
    expect(b.steps[5]!.aas).toBeCloseTo(32, 0);
    expect(b.grewMost[0]).toMatchObject({ kind: 'class', name: 'Lock' });
    expect(b.grewMost.find((g) => g.kind === 'event')).toMatchObject({ name: 'transactionid', waitClass: 'Lock' });
    expect(b.grewMost[0]!.deltaPct).toBeCloseTo(50, 6);
    expect(b.waitGrowth).toHaveLength(5);
    expect(b.waitGrowth[0]).toMatchObject({ fromVus: 1, toVus: 2 });
    expect(b.waitGrowth[0]!.grew[0]).toMatchObject({ name: 'Lock', fromPct: 10, toPct: 20, deltaPct: 10 });
    expect(b.summary).toMatch(/^Contention σ=0\.050, coherency κ=0\.0020 \(R²=1\.000\); predicted peak 21\.8 VUs at [\d,]+ NOPM; the latency knee at 8 VUs \(p95 neworder 5\.60 ms\); waits that grew most: Lock \+50 pts, Lock:transactionid \+50 pts\.$/);
  });

  it("the job's HTML report shows its profile's scalability; a job of a profile with too few VU counts has no such section", async () => {
    const b = JSON.parse((await s.app.inject({ method: 'GET', url: `/api/v1/profiles/${profileId}/scalability` })).body) as ProfileScalability;
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${ids[0]}/report` });
    expect(r.statusCode).toBe(200);
    const section = r.body.slice(r.body.indexOf('<section id="scalability">'));
    expect(section).toMatch(/^<section id="scalability"><h2>Scalability of profile 4242<\/h2>/);
    expect(section).toContain(b.summary);
    expect(section).toContain('<svg');
    expect(section).toContain('Lock:transactionid');
    const few = s.store.profileJobs(7)[0]!.jobId;
    const r7 = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${few}/report` });
    expect(r7.statusCode).toBe(200);
    expect(r7.body).not.toContain('id="scalability"');
  });

  it('too few VU counts is a 409 naming the id; an unknown profile a 404', async () => {
    const few = await s.app.inject({ method: 'GET', url: '/api/v1/profiles/7/scalability' });
    expect(few.statusCode).toBe(409);
    expect(JSON.parse(few.body)).toMatchObject({ error: { code: 'SLEDGE_E_CONFLICT', field: 'id' } });
    expect(few.body).toContain('runs at 2 VU counts (1, 2); a scalability fit needs runs at 3 or more');
    const none = await s.app.inject({ method: 'GET', url: '/api/v1/profiles/999/scalability' });
    expect(none.statusCode).toBe(404);
    const bad = await s.app.inject({ method: 'GET', url: '/api/v1/profiles/0/scalability' });
    expect(bad.statusCode).toBe(400);
  });
});
