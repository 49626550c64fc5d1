import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileScalability } from '@sledge/protocol';
import { makeApp, runJob, type SledgeApp } from './helpers.js';
import { copyPgTprocc } from './live-template.js';

/**
 * A real performance profile on PostgreSQL: 1, 2 and 4 VUs on one warehouse
 * (short runs, time profile on), then GET /profiles/:id/scalability. Three
 * VU counts fit exactly (no degrees of freedom, so no band), σ and κ are
 * finite and ≥ 0, every step has ASH shares with named events, and the
 * p95 new-order latency of every step is there for the knee.
 */
const DB = 'usl_explainer_pg';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'usl-pw', database: DB, superuser: 'postgres', superuserPassword: 'postgres', sslmode: 'disable' };
const PROFILE = 31;

describe('PostgreSQL profile scalability', () => {
  let s: SledgeApp;

  beforeAll(async () => {
    s = await makeApp();
    await runJob(s, { type: 'delete', target });
    await copyPgTprocc({ database: DB, user: DB, password: target.password });
    for (const vus of [1, 2, 4]) {
      const j = await runJob(s, { type: 'run', target, profileId: PROFILE, tprocc: { vus, rampup: 0, duration: 0.1, timeProfile: true } });
      expect(j.status, JSON.stringify(j.error)).toBe('completed');
    }
  });

  afterAll(async () => {
    if (s) {
      await runJob(s, { type: 'delete', target }).catch(() => undefined);
      await s.app.close();
    }
  });

  it('fits σ and κ, reads the knee latency and names the wait events of each step', async () => {
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/profiles/${PROFILE}/scalability` });
    expect(r.statusCode, r.body).toBe(200);
    const b = JSON.parse(r.body) as ProfileScalability;
    expect(b).toMatchObject({ profileId: PROFILE, engine: 'postgresql', metric: 'nopm' });
    expect(b.steps.map((x) => x.vus)).toEqual([1, 2, 4]);
    for (const step of b.steps) {
      expect(step.nopm).toBeGreaterThan(0);
      expect(step.latencyMs).toBeGreaterThan(0);
      expect(step.aas).toBeGreaterThan(0);
      // Every step's sessions are named by class and by the engine's own event (WALSync, transactionid, CPU ...), each event inside one of the step's classes.
      const classes = step.waits.filter((w) => w.kind === 'class').map((w) => w.name);
      const events = step.waits.filter((w) => w.kind === 'event');
      expect(classes.length, JSON.stringify(step.waits)).toBeGreaterThan(0);
      expect(events.length, JSON.stringify(step.waits)).toBeGreaterThan(0);
      for (const e of events) {
        expect(e.name.length).toBeGreaterThan(0);
        expect(e.pct).toBeGreaterThan(0);
        expect(classes).toContain(e.waitClass);
      }
    }
    const fit = b.fit!;
    expect(fit).not.toBeNull();
    for (const v of [fit.x1, fit.sigma, fit.kappa, fit.r2]) expect(Number.isFinite(v)).toBe(true);
    expect(fit.sigma).toBeGreaterThanOrEqual(0);
    expect(fit.kappa).toBeGreaterThanOrEqual(0);
    expect(fit).toMatchObject({ points: 3, distinctN: 3 });
    expect(fit.curve.length).toBeGreaterThan(10);
    expect(fit.curve.every((c) => Number.isFinite(c.x))).toBe(true);
    // The knee: found, or a reason (latency that does not bend upwards over 1..4 VUs has none).
    expect(b.knee !== null || (b.kneeProblem ?? '').length > 0).toBe(true);
    expect(b.waitGrowth.map((g) => [g.fromVus, g.toVus])).toEqual([
      [1, 2],
      [2, 4],
    ]);
    // What grew from 1 to 4 VUs is what the last step shows (one warehouse: usually the row lock on the warehouse and WAL writes).
    const last = b.steps[2]!.waits;
    for (const g of b.grewMost) expect(last.find((w) => w.kind === g.kind && w.name === g.name && w.waitClass === g.waitClass)?.pct).toBeCloseTo(g.toPct, 1);
    const topEvent = b.grewMost.find((g) => g.kind === 'event');
    if (topEvent) expect(b.summary).toContain(`${topEvent.waitClass}:${topEvent.name} +`);
    expect(b.summary).toMatch(/^Contention σ=[\d.e-]+, coherency κ=[\d.e-]+ \(R²=/);
    // The ASH of each step is the job's own: the steps' event shares add up to (about) 100% of the classes'.
    for (const step of b.steps) {
      const classes = step.waits.filter((w) => w.kind === 'class').reduce((a, w) => a + w.pct, 0);
      expect(classes).toBeGreaterThan(99);
      expect(classes).toBeLessThan(101);
    }
  });
});
