import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobList, TimingRow, TproccResult, Validity } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/** tprocc.mix on a real SQLite schema through REST: a 100% new-order run, its result, verdict and report; a bad table refused. */
describe('TPROC-C mix weights on SQLite', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'sqlite', file: 'mix-weights.sqlite' };
  const only = { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 };
  let onlyId = '';

  beforeAll(async () => {
    s = await makeApp();
    sqliteFromTemplate(s, target.file);
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('a bad weight table is a 400 naming the weight, and no job is created', async () => {
    const before = (await get<JobList>(s, '/api/v1/jobs')).total;
    for (const [mix, field] of [
      [{ neworder: -5 }, 'tprocc.mix.neworder'],
      [{ newOrder: 100 }, 'tprocc.mix.newOrder'],
      [{ neworder: 0, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 }, 'tprocc.mix'],
    ] as const) {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.05, mix } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field } });
    }
    expect((await get<JobList>(s, '/api/v1/jobs')).total).toBe(before);
  });

  it('100% new order with 2 VUs: only new orders run, NOPM > 0, the result and verdict flag the non-standard mix, the report says so', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.08, userDelayMs: 0, timeProfile: true, tcRefreshSec: 1, mix: only } });
    expect(r.status).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status).toBe('completed');
    onlyId = job.id;
    const res = job.result as TproccResult;
    expect(res.nopm).toBeGreaterThan(0);
    expect(res.activeVus).toBe(2);
    expect(res.mix).toEqual(only);
    expect(res.standardMix).toBe(false);
    expect(job.summary).toMatch(/^\d+ NOPM, \d+ TPM, 2 VU, non-standard mix$/);
    // Only new orders were counted: the time profile has calls for NEWORD alone, and they are every transaction of the window.
    const timing = await get<TimingRow[]>(s, `/api/v1/jobs/${job.id}/timing?vu=0`);
    const calls = Object.fromEntries(timing.map((t) => [t.proc, t.calls]));
    expect(calls['NEWORD']).toBeGreaterThan(0);
    for (const p of ['PAYMENT', 'DELIVERY', 'SLEV', 'OSTAT']) expect(calls[p] ?? 0).toBe(0);
    const v = (job.result as { validity: Validity }).validity;
    const by = Object.fromEntries(v.checks.map((c) => [c.id, c]));
    expect(by['standard-mix']).toMatchObject({ status: 'warn', detail: expect.stringContaining("is not HammerDB's standard 10/10/1/1/1: NOPM and TPM are not comparable") });
    expect(by['mix']!.detail).toMatch(/^\d+ transactions: neworder 100\.0% \(configured 100\.0%\), payment 0\.0% \(configured 0\.0%\)/);
    expect(v.status).not.toBe('pass');
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?q=mix`);
    const texts = out.lines.map((l) => l.text);
    expect(texts.some((t) => t.includes('non-standard transaction mix (neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0)'))).toBe(true);
    expect(texts).toContain("Transaction mix neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0: not HammerDB's standard 10/10/1/1/1, so this NOPM is not comparable with HammerDB's standard runs");
    const html = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/report` });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Non-standard transaction mix (neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0)');
    expect(html.body).toContain('Standard transaction mix');
  });

  it("a run on the default mix records it as HammerDB's standard one", async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.05 } });
    const job = await waitJob(s, String(r.body.id));
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({ mix: { neworder: 10, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 1 }, standardMix: true });
    expect(job.summary).not.toContain('non-standard');
    const v = (job.result as { validity: Validity }).validity;
    expect(v.checks.find((c) => c.id === 'standard-mix')).toMatchObject({ status: 'pass' });
    // Compared with the new-order-only run, the comparison report names the job whose mix is not the standard one.
    const cmp = await s.app.inject({ method: 'GET', url: `/api/v1/compare/report?jobs=${job.id},${onlyId}` });
    expect(cmp.statusCode).toBe(200);
    expect(cmp.body).toMatch(/id="mix-note">Non-standard transaction mix: 2\. [^(]+\(neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0\)\. NOPM compares only between runs of the same mix/);
  });
});
