import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileScalability } from '@sledge/protocol';
import { makeApp, runJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/**
 * A real performance profile on SQLite: 1, 2 and 3 VUs on one warehouse
 * (6 s runs, time profile on). SQLite has one writer, so VUs queue for the
 * write lock: the client-side ASH's Lock share grows with VUs and the
 * explainer names it, beside a finite fit.
 */
describe('SQLite profile scalability', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'sqlite', file: 'usl.sqlite' };

  beforeAll(async () => {
    s = await makeApp();
    sqliteFromTemplate(s, target.file);
    for (const vus of [1, 2, 3]) {
      const j = await runJob(s, { type: 'run', target, profileId: 3, tprocc: { vus, rampup: 0, duration: 0.1, timeProfile: true } });
      expect(j.status, JSON.stringify(j.error)).toBe('completed');
    }
  });
  afterAll(async () => s?.app.close());

  it('fits, reads every step and names the write lock as what grew', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/v1/profiles/3/scalability' });
    expect(r.statusCode, r.body).toBe(200);
    const b = JSON.parse(r.body) as ProfileScalability;
    expect(b).toMatchObject({ engine: 'sqlite', metric: 'nopm' });
    expect(b.steps.map((x) => x.vus)).toEqual([1, 2, 3]);
    for (const v of [b.fit!.sigma, b.fit!.kappa, b.fit!.x1]) expect(Number.isFinite(v)).toBe(true);
    for (const st of b.steps) {
      expect(st.latencyMs).toBeGreaterThan(0);
      expect(st.waits.some((w) => w.kind === 'class')).toBe(true);
    }
    // One VU barely waits at BEGIN IMMEDIATE; three VUs queue for the write lock.
    const lock = (i: number) => b.steps[i]!.waits.find((w) => w.kind === 'class' && w.name === 'Lock')?.pct ?? 0;
    expect(lock(2), JSON.stringify(b.steps.map((x) => x.waits))).toBeGreaterThan(lock(0) + 10);
    expect(b.grewMost.some((g) => g.kind === 'class' && g.name === 'Lock')).toBe(true);
    expect(b.summary).toContain('Lock +');
  });
});
