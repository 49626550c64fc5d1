import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobList, ThresholdEvaluation, Validity } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/** Thresholds on real SQLite runs through REST: verdict stored with the job, re-evaluation without change, baseline, export. */
describe('thresholds on SQLite through REST', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'sqlite', file: 'thresholds.sqlite' };
  const run = { vus: 1, rampup: 0, duration: 0.05, timeProfile: true };
  let first: Job;

  beforeAll(async () => {
    s = await makeApp();
    sqliteFromTemplate(s, target.file);
  });
  afterAll(async () => {
    await s.app.close();
  });

  const count = async () => (await get<JobList>(s, '/api/v1/jobs')).total;

  it('a bad expression or baseline is a 400 naming the field, and nothing is created', async () => {
    const before = await count();
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: run, thresholds: ['nopm>1', 'p95(neword)<fast'] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'thresholds[1]' } });
    expect(JSON.stringify(r.body)).toContain('must be a number with an optional unit');
    const b = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: run, baseline: { jobId: 'A'.repeat(24) } });
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ error: { field: 'baseline.jobId' } });
    expect(await count()).toBe(before);
  });

  it('a run with one passing and one failing threshold: stored verdict, output lines, list and export', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: run, thresholds: ['nopm>0', 'p95(neword)<1us'] });
    expect(r.status).toBe(201);
    first = await waitJob(s, String(r.body.id));
    expect(first.status).toBe('completed');
    expect(first.passed).toBe(false);
    expect(first.thresholdResults!.map((t) => [t.metric, t.ok])).toEqual([
      ['nopm', true],
      ['p95(neworder)', false],
    ]);
    expect(first.thresholdResults![1]!.actual).toBeGreaterThan(0);
    expect(first.thresholdResults![1]!.message).toMatch(/^p95\(neworder\) [\d.]+ ms is not < 0.001 ms: fail$/);
    expect((first.config as { thresholds: string[] }).thresholds).toEqual(['nopm>0', 'p95(neword)<1us']);
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${first.id}/output?q=Threshold`);
    expect(out.lines.map((l) => l.text)).toEqual([expect.stringMatching(/^Threshold PASSED: nopm>0: nopm \d+ > 0: pass$/), expect.stringMatching(/^Threshold FAILED: p95\(neword\)<1us/), 'Thresholds FAILED (1 of 2 held)']);
    const list = await get<JobList>(s, '/api/v1/jobs?type=run');
    expect(list.jobs.find((j) => j.id === first.id)?.passed).toBe(false);
    const exp = await get<{ thresholds: ThresholdEvaluation }>(s, `/api/v1/jobs/${first.id}/export`);
    expect(exp.thresholds.passed).toBe(false);
    const csv = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${first.id}/export?format=csv&series=thresholds` });
    expect(csv.body.split('\n')[0]).toBe('expr,metric,actual,limit,unit,ok,message');
    expect(csv.body).toContain('nopm>0,nopm,');
  });

  it('every timed run carries a validity verdict; tprocc.verify adds the consistency check; export and report show it', async () => {
    // The run above did not ask for verify: its consistency check is skipped, its measured checks have real values.
    const v0 = (first.result as { validity?: Validity }).validity!;
    expect(v0.checks.find((c) => c.id === 'consistency')).toMatchObject({ status: 'skip', detail: expect.stringContaining('not requested') });
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { ...run, duration: 0.1, tcRefreshSec: 1, verify: true } });
    expect(r.status).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status).toBe('completed');
    const v = (job.result as { validity?: Validity }).validity!;
    const by = Object.fromEntries(v.checks.map((c) => [c.id, c]));
    expect(Object.keys(by)).toEqual(['neworder-rollbacks', 'mix', 'standard-mix', 'nopm-vs-client', 'foreign-load', 'client-saturation', 'steady-state', 'errors', 'order-lines', 'remote-lines', 'remote-payments', 'by-name', 'consistency']);
    expect(by['consistency']).toMatchObject({ status: 'pass', detail: expect.stringMatching(/^all \d+ checkschema conditions held$/) });
    // Real values from the window: the client's counts, NOPM against them, the NOPM samples of the 1 s counter.
    expect(by['mix']!.detail).toMatch(/^\d+ transactions: neworder [\d.]+% \(configured 43\.5%/);
    expect(by['nopm-vs-client']!.detail).toMatch(/^NOPM \d+ vs \d+ new orders per minute counted by the client/);
    expect(by['nopm-vs-client']!.status).toBe('pass');
    expect(by['errors']!.status).toBe('pass');
    expect(['pass', 'warn', 'fail', 'skip']).toContain(by['neworder-rollbacks']!.status);
    expect(by['neworder-rollbacks']!.detail).toMatch(/new orders/);
    expect(by['steady-state']!.detail).toMatch(/samples|sample\(s\)/);
    // SQLite: TPM is counted by the client and the engine runs in the client's process.
    expect(by['foreign-load']!.status).toBe('skip');
    expect(by['client-saturation']!.status).toBe('skip');
    expect(v.status).toBe(v.checks.some((c) => c.status === 'fail') ? 'fail' : v.checks.some((c) => c.status === 'warn') ? 'warn' : 'pass');
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?q=Validity`);
    expect(out.lines.map((l) => l.text)).toContain(`Validity check Schema consistency after the run (C1-C4): PASS - ${by['consistency']!.detail}`);
    expect(out.lines.at(-1)?.text).toMatch(/^Validity verdict: (PASS|WARN|FAIL) \(\d+ passed, \d+ warned, \d+ failed, 6 skipped\)$/);
    const exp = await get<{ validity: Validity }>(s, `/api/v1/jobs/${job.id}/export`);
    expect(exp.validity).toEqual(v);
    const html = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/report` });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('id="validity"');
    expect(html.body).toContain('Schema consistency after the run (C1-C4)');
  });

  it('POST /jobs/:id/thresholds evaluates other conditions without changing the job; an empty body re-evaluates its own', async () => {
    const ev = await post(s, `/api/v1/jobs/${first.id}/thresholds`, { thresholds: ['nopm>0', 'p95(neword)<60s', 'tpm>=1'] });
    expect(ev.status).toBe(200);
    expect(ev.body).toMatchObject({ passed: true });
    expect((await get<Job>(s, `/api/v1/jobs/${first.id}`)).passed).toBe(false);
    const own = await post(s, `/api/v1/jobs/${first.id}/thresholds`, {});
    expect(own.body).toMatchObject({ passed: false });
    const bad = await post(s, `/api/v1/jobs/${first.id}/thresholds`, { thresholds: ['nopm >> 3'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { field: 'thresholds[0]' } });
    expect((await post(s, `/api/v1/jobs/${'0'.repeat(24)}/thresholds`, { thresholds: ['nopm>0'] })).status).toBe(404);
  });

  it('a second run judged against the first as its baseline job', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: run, baseline: { jobId: first.id, maxRegression: 0.99 } });
    expect(r.status).toBe(201);
    const second = await waitJob(s, String(r.body.id));
    expect(second.status).toBe('completed');
    expect(second.thresholdResults).toHaveLength(1);
    expect(second.thresholdResults![0]).toMatchObject({ metric: 'regression(nopm)', limit: 99, unit: '%', ok: true });
    expect(second.passed).toBe(true);
    // The same pair with no regression allowed: passes exactly when the second run's NOPM is at least the first's.
    const strict = await post(s, `/api/v1/jobs/${second.id}/thresholds`, { baseline: { jobId: first.id, maxRegression: 0 } });
    const a = (first.result as { nopm: number }).nopm;
    const b2 = (second.result as { nopm: number }).nopm;
    expect(strict.body).toMatchObject({ passed: b2 >= a });
  });

  it("a ':abort' threshold that must fail stops the run early: failed with the reason, the verdict of the window so far, no result", async () => {
    // 30 s planned; judged every 5 s from the window's start, so the first judgement stops it.
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { ...run, duration: 0.5 }, thresholds: ['p95(neword)<1us:abort', 'nopm>0'] });
    expect(r.status).toBe(201);
    const j = await waitJob(s, String(r.body.id));
    expect(j.status).toBe('failed');
    expect(j.error?.code).toBe('SLEDGE_E_THRESHOLD_ABORT');
    expect(j.error?.message).toMatch(/^aborted: threshold p95\(neword\)<1us failed at 00:\d\d of the measured window \(p95\(neworder\) [\d.]+ ms is not < 0.001 ms\)$/);
    expect(j.result).toBeUndefined();
    expect(j.passed).toBe(false);
    const [abort, nopm] = j.thresholdResults!;
    expect(abort).toMatchObject({ expr: 'p95(neword)<1us:abort', ok: false });
    // It stopped inside the planned 30 s window, and says when.
    expect(abort!.abortedAt).toBeGreaterThan(0);
    expect(abort!.abortedAt).toBeLessThan(30);
    expect(j.error!.message).toContain(`failed at 00:${String(Math.floor(abort!.abortedAt!)).padStart(2, '0')}`);
    // The other threshold is judged on the window up to the abort, not reported as missing.
    expect(nopm).toMatchObject({ expr: 'nopm>0', ok: true });
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${j.id}/output?q=Threshold`);
    expect(out.lines.map((l) => l.text)).toContainEqual(expect.stringMatching(/^Threshold p95\(neword\)<1us failed at 00:\d\d of the measured window .*: stopping the run$/));
  });

  it("':abort' thresholds that hold let the run finish and are judged at its end as usual", async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { ...run, duration: 0.15 }, thresholds: ['nopm>0:abort', 'p95(neword)<60s:abort(1s)'] });
    const j = await waitJob(s, String(r.body.id));
    expect(j.status).toBe('completed');
    expect(j.passed).toBe(true);
    expect(j.thresholdResults!.map((t) => [t.expr, t.ok, t.abortedAt])).toEqual([
      ['nopm>0:abort', true, undefined],
      ['p95(neword)<60s:abort(1s)', true, undefined],
    ]);
  });
});

