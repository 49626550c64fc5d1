import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';
import { quiet, quietTimeout } from '../../scripts/test-quiet.mjs';

type StepRes = { index: number; vus: number; startSec: number; endSec: number; nopm: number; tpm: number; transactions: number; latency: Record<string, { p50: number; p95: number; p99: number }> };
type ArrivalRes = { targetRate: number; achievedRate: number; sessionsUsed: number; maxSessions: number; dropped: number; scheduled: number; latencyFromIntended: boolean };
type ShapeSample = { ts: number; data: Record<string, number | string> };

/**
 * Run shapes on SQLite (issue 12 items 4 and 5): a three-step load and
 * arrival-rate runs, through REST, with their results and live samples.
 */
describe('run shapes on SQLite', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'sqlite', file: 'shapes_sqlite.sqlite' };

  beforeAll(async () => {
    s = await makeApp();
    sqliteFromTemplate(s, target.file);
  });
  afterAll(async () => {
    await s.app.close();
  });

  const shapeSamples = async (id: string) => (await get<{ metrics: Record<string, ShapeSample[]> }>(s, `/api/v1/jobs/${id}/export`)).metrics['shape'] ?? [];

  it('refuses a schedule longer than rampup + duration, naming the field, and overlapping steps', async () => {
    const long = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 1, steps: [{ startAfterMin: 0, durationMin: 0.5, vus: 1 }, { startAfterMin: 0.5, durationMin: 0.6, vus: 2 }] } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'tprocc.steps' } });
    expect(String((long.body as { error: { message: string } }).error.message)).toContain('1.1 minutes');
    const overlap = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 1, steps: [{ startAfterMin: 0, durationMin: 0.5, vus: 1 }, { startAfterMin: 0.2, durationMin: 0.2, vus: 2 }] } });
    expect(overlap.body).toMatchObject({ error: { field: 'tprocc.steps.1.startAfterMin' } });
    const both = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 1, steps: [{ startAfterMin: 0, durationMin: 0.5, vus: 1 }], arrival: { rate: 5, maxSessions: 2 } } });
    expect(both.body).toMatchObject({ error: { field: 'tprocc.arrival' } });
  });

  it('runs three steps of 1, 2 and 3 VUs: each step has its VUs, NOPM > 0 and latency per transaction', async () => {
    const steps = [
      { startAfterMin: 0, durationMin: 0.1, vus: 1 },
      { startAfterMin: 0.1, durationMin: 0.1, vus: 2 },
      { startAfterMin: 0.1, durationMin: 0.1, vus: 3 },
    ];
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.3, userDelayMs: 0, tcRefreshSec: 2, steps } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job: Job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as unknown as { activeVus: number; steps: StepRes[] };
    expect(res.activeVus).toBe(3);
    expect(res.steps.map((x) => [x.index, x.vus, x.startSec, x.endSec])).toEqual([
      [1, 1, 0, 6],
      [2, 2, 6, 12],
      [3, 3, 12, 18],
    ]);
    for (const st of res.steps) {
      expect(st.nopm).toBeGreaterThan(0);
      expect(st.tpm).toBeGreaterThan(st.nopm);
      expect(st.latency['neworder']!.p95).toBeGreaterThan(0);
      expect(st.latency['neworder']!.p99).toBeGreaterThanOrEqual(st.latency['neworder']!.p50);
    }
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=5000`);
    expect(out.lines.some((l) => l.text === 'Virtual users run in JavaScript (the SQLite driver has no native VU loop)' || l.text.startsWith('Virtual users run in JavaScript'))).toBe(true);
    expect(out.lines.some((l) => /^Step 3 complete: 3 VU, \d+ NOPM/.test(l.text))).toBe(true);
    const samples = await shapeSamples(job.id);
    expect(samples.filter((x) => x.data['kind'] === 'step').map((x) => x.data['vus'])).toEqual([1, 2, 3]);
  });

  it('runs at 20 arrivals/s: achieved close to target, latency from the intended start, sessions counted', () =>
    quiet(async () => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.3, tcRefreshSec: 2, arrival: { rate: 20, maxSessions: 3, graceMs: 250 } } });
      const job: Job = await waitJob(s, String(r.body.id));
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const a = (job.result as unknown as { arrival: ArrivalRes }).arrival;
      expect(a.latencyFromIntended).toBe(true);
      expect(a.targetRate).toBe(20);
      expect(Math.abs(a.achievedRate - 20) / 20).toBeLessThan(0.1);
      expect(a.sessionsUsed).toBeGreaterThanOrEqual(1);
      expect(a.sessionsUsed).toBeLessThanOrEqual(3);
      // A shared 2-core CI host can stall a thread: a 250 ms grace keeps stalls from counting as drops.
      expect(a.dropped / a.scheduled).toBeLessThan(0.01);
      const samples = (await shapeSamples(job.id)).filter((x) => x.data['kind'] === 'arrival');
      expect(samples.length).toBeGreaterThan(10);
      expect(samples.every((x) => x.data['target'] === 20)).toBe(true);
    }), quietTimeout(300_000));

  it('counts dropped arrivals when one session cannot keep up with a high ramping rate', () =>
    quiet(async () => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.1, arrival: { rate: 20000, rampTo: 40000, maxSessions: 1 } } });
      const job: Job = await waitJob(s, String(r.body.id));
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const a = (job.result as unknown as { arrival: ArrivalRes }).arrival;
      expect(a.sessionsUsed).toBe(1);
      expect(a.dropped).toBeGreaterThan(0);
      expect(a.achievedRate).toBeLessThan(a.targetRate);
      // Every scheduled arrival in the window either ran or was dropped (give or take those in flight at the edges).
      expect(Math.abs(a.scheduled - a.dropped - a.achievedRate * 6) / a.scheduled).toBeLessThan(0.05);
    }), quietTimeout(300_000));

  it('capacity search up to maxRate: doubles 5 -> 10 -> 20/s, holds 20/s, stores the probes with the job and as live samples', () =>
    quiet(async () => {
      const slo = 'p95(neword)<5s, error_rate<50%';
      const r = await post(s, '/api/v1/jobs', {
        type: 'run',
        target,
        tprocc: { rampup: 0, duration: 1, tcRefreshSec: 2, arrival: { rate: 5, maxSessions: 2, graceMs: 250 }, capacity: { slo, maxRate: 20, stepSeconds: 2, holdSeconds: 3, maxDropped: 0.2 } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const job: Job = await waitJob(s, String(r.body.id));
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const c = (job.result as unknown as { capacity: { rate: number; held: boolean; reason: string; probes: { phase: string; rate: number; passed: boolean; checks: { expr: string }[] }[] } }).capacity;
      expect(c.probes.map((p) => [p.phase, p.rate])).toEqual([
        ['bracket', 5],
        ['bracket', 10],
        ['bracket', 20],
        ['hold', 20],
      ]);
      // Two SLO conditions and the drop check, judged on every probe.
      expect(c.probes[0]!.checks.map((x) => x.expr)).toEqual(['p95(neword)<5s', 'error_rate<50%', 'dropped<=20%']);
      expect(c).toMatchObject({ rate: 20, held: true });
      expect(c.reason).toContain('maxRate');
      const live = (await shapeSamples(job.id)).filter((x) => x.data['kind'] === 'capacity');
      expect(live.map((x) => x.data['rate'])).toEqual([5, 10, 20, 20]);
    }), quietTimeout(300_000));
});
