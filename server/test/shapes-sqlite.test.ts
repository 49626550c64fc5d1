import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { PACED, get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

type StepRes = { index: number; vus: number; startSec: number; endSec: number; nopm: number; tpm: number; transactions: number; latency: Record<string, { p50: number; p95: number; p99: number }> };
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
    // Paced VUs (PACED, helpers.ts): the steps' timing and VU counts are the subject, not each VU's load.
    const steps = [
      { startAfterMin: 0, durationMin: 0.1, vus: 1 },
      { startAfterMin: 0.1, durationMin: 0.1, vus: 2 },
      { startAfterMin: 0.1, durationMin: 0.1, vus: 3 },
    ];
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.3, userDelayMs: 0, tcRefreshSec: 2, steps, ...PACED } });
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
});
