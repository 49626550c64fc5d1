import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

type StepRes = { index: number; vus: number; nopm: number; tpm: number; latency: Record<string, { p50: number; p95: number; p99: number }> };
type ArrivalRes = { targetRate: number; achievedRate: number; sessionsUsed: number; dropped: number; scheduled: number };
type CapacityRes = {
  slo: string;
  rate: number | null;
  held: boolean;
  reason: string;
  latency: Record<string, { p50: number; p95: number; p99: number; calls: number }>;
  probes: { index: number; phase: string; rate: number; passed: boolean; achievedRate: number; checks: { expr: string; actual: number | null; ok: boolean }[]; latency: Record<string, { p95: number }> }[];
};

/**
 * Run shapes on PostgreSQL (issue 12 items 4 and 5): both need the TypeScript
 * VU loop (the native libpq loop does not implement them) and say so.
 * A solo-tier file (vitest.config.ts): per-step engine TPM is server-wide, and
 * arrival rates and the capacity search's latencies must be met on time, so it
 * runs with the machine to itself, after the slow stage, instead of draining
 * the slow stage in quiet sections (docs/testing.md, "Quiet sections").
 */
describe('run shapes on PostgreSQL', () => {
  let s: SledgeApp;
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'shapes_pg', password: 'shapes-pw', database: 'shapes_pg', superuser: 'postgres', superuserPassword: 'postgres' };
  // node-postgres warns (DeprecationWarning, once per process) when a query is sent on a Client that is still running one.
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  const lines = async (id: string) => (await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=5000`)).lines.map((l) => l.text);

  beforeAll(async () => {
    process.on('warning', onWarning);
    s = await makeApp();
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    await waitJob(s, String(del.body.id));
    const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 2, buildVus: 2 } });
    expect((await waitJob(s, String(r.body.id))).status).toBe('completed');
  });
  afterAll(async () => {
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s.app.close();
    process.off('warning', onWarning);
  });

  it('runs three steps of 1, 2 and 4 VUs in the TypeScript loop: per-step NOPM/TPM from the engine', async () => {
    const steps = [
      { startAfterMin: 0, durationMin: 0.2, vus: 1 },
      { startAfterMin: 0.2, durationMin: 0.2, vus: 2 },
      { startAfterMin: 0.2, durationMin: 0.2, vus: 4 },
    ];
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.6, userDelayMs: 0, tcRefreshSec: 2, steps } });
    const job: Job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as unknown as { activeVus: number; steps: StepRes[] };
    expect(res.activeVus).toBe(4);
    expect(res.steps.map((x) => x.vus)).toEqual([1, 2, 4]);
    for (const st of res.steps) {
      expect(st.nopm).toBeGreaterThan(0);
      expect(st.tpm / st.nopm).toBeGreaterThan(1.8);
      expect(Object.keys(st.latency)).toEqual(expect.arrayContaining(['neworder', 'payment']));
    }
    // Each step's window is its own: its client transactions sit inside it (no throughput claim: the host is shared).
    for (const st of res.steps as unknown as { transactions: number; startSec: number; endSec: number }[]) {
      expect(st.transactions).toBeGreaterThan(0);
      expect(st.endSec - st.startSec).toBe(12);
    }
    expect(await lines(job.id)).toContain('Virtual users run in JavaScript (step loads (tprocc.steps) run in the TypeScript loop)');
    // The monitor's session is read at each step's ends and by the transaction counter: one query at a time (issue 31 item 9).
    await new Promise((res) => setImmediate(res));
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  }, 300_000);

  it('runs at 50 arrivals/s: achieved within 5% of target, under 5% dropped; a tiny pool at a high rate drops arrivals', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.3, tcRefreshSec: 2, arrival: { rate: 50, maxSessions: 8, graceMs: 250 } } });
    const job: Job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const a = (job.result as unknown as { nopm: number; arrival: ArrivalRes }).arrival;
    expect(a.targetRate).toBe(50);
    expect(Math.abs(a.achievedRate - 50) / 50).toBeLessThan(0.05);
    // A shared 2-core CI host can stall a thread for tens of ms: a 250 ms grace keeps most stalls from counting as drops;
    // at a load average of 7 on 2 cores, 2% were still dropped, so the bound is 5% (a pool that cannot keep up drops far more, below).
    expect(a.dropped / a.scheduled).toBeLessThan(0.05);
    expect(a.sessionsUsed).toBeGreaterThanOrEqual(1);
    expect((job.result as unknown as { nopm: number }).nopm).toBeGreaterThan(0);
    expect(await lines(job.id)).toContain('Virtual users run in JavaScript (arrival-rate mode (tprocc.arrival) runs in the TypeScript loop)');

    const hot = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { rampup: 0, duration: 0.1, arrival: { rate: 20000, maxSessions: 2 } } });
    const hotJob: Job = await waitJob(s, String(hot.body.id));
    expect(hotJob.status, JSON.stringify(hotJob.error)).toBe('completed');
    const h = (hotJob.result as unknown as { arrival: ArrivalRes }).arrival;
    expect(h.sessionsUsed).toBe(2);
    expect(h.dropped).toBeGreaterThan(0);
    expect(h.achievedRate).toBeLessThan(h.targetRate);
  }, 300_000);

  it('capacity at an SLO: p95(neword)<20ms finds a rate by doubling and bisection, and holds it (issue 34 item 3)', async () => {
    const count = async () => (await get<{ total: number }>(s, '/api/v1/jobs?limit=1')).total;
    // A bad SLO is a 400 naming the condition's position; nothing is queued.
    const before = await count();
    const bad = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { arrival: { rate: 10, maxSessions: 8 }, capacity: { slo: 'p95(neword)<20ms, p95(nosuch)<5ms' } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'tprocc.capacity.slo' } });
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/condition 2 at character 19/);
    expect(await count()).toBe(before);

    // Short probes on a shared host: 4 s each (the first 0.8 s settles), a 25% tolerance, an 8 s hold.
    const slo = 'p95(neword)<20ms';
    const r = await post(s, '/api/v1/jobs', {
      type: 'run',
      target,
      tprocc: { rampup: 0, duration: 1, tcRefreshSec: 2, arrival: { rate: 10, maxSessions: 8, graceMs: 250 }, capacity: { slo, stepSeconds: 4, holdSeconds: 8, tolerance: 0.25 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job: Job = await waitJob(s, String(r.body.id), 280_000);
    expect(job.status, `${JSON.stringify(job.error)}\n${(await lines(job.id)).filter((l) => l.startsWith('Capacity')).join('\n')}`).toBe('completed');
    const res = job.result as unknown as { nopm: number; arrival: ArrivalRes; capacity: CapacityRes };
    const c = res.capacity;
    expect(c.slo).toBe(slo);
    const search = c.probes.filter((p) => p.phase !== 'hold');
    const hold = c.probes.at(-1)!;
    // Bracketing doubles from the start rate while probes pass (halves while the start rate fails, on a loaded host).
    expect(search[0]!.rate).toBe(10);
    for (let i = 1; i < search.length && search[i]!.phase === 'bracket'; i++) {
      const prev = search[i - 1]!;
      expect(search[i]!.rate).toBe(prev.passed ? prev.rate * 2 : Math.round((prev.rate / 2) * 10) / 10);
    }
    // Some rate failed (8 sessions cannot go on forever), and bisection narrowed to within the tolerance.
    const lastPass = Math.max(...search.filter((p) => p.passed).map((p) => p.rate));
    const firstFail = Math.min(...search.filter((p) => !p.passed && p.rate > lastPass).map((p) => p.rate));
    expect(Number.isFinite(firstFail)).toBe(true);
    expect(firstFail - lastPass).toBeLessThanOrEqual(0.25 * lastPass + 1);
    // Each verdict follows its measured p95.
    for (const p of c.probes) {
      const chk = p.checks.find((x) => x.expr === slo)!;
      if (chk.actual !== null) expect(chk.ok).toBe(chk.actual < 20);
      expect(p.passed).toBe(p.checks.every((x) => x.ok));
    }
    // The found rate is the highest that passed, it was held, and the job's measured window is the hold.
    expect(c.rate).toBe(lastPass);
    expect(hold).toMatchObject({ phase: 'hold', rate: lastPass });
    // held is the hold's own verdict. The found rate is the edge by construction: on a 2-core host shared with
    // other builds (load average 6-12) a hold at it failed in one run of four, so the verdict is checked, not assumed.
    expect(c.held).toBe(hold.passed);
    expect(c.held).toBe(hold.checks.find((x) => x.expr === slo)!.ok && hold.checks.every((x) => x.ok));
    expect(c.latency['neworder']!.calls).toBeGreaterThan(0);
    expect(res.arrival.targetRate).toBeCloseTo(lastPass, -1);
    expect(res.nopm).toBeGreaterThan(0);
    const out = await lines(job.id);
    expect(out.some((l) => l.startsWith('Capacity probe 1 (bracket) at 10/s'))).toBe(true);
    expect(out.some((l) => l.startsWith(`Capacity at SLO ${slo}: ${lastPass}/s, ${c.held ? 'held' : 'NOT held'}`))).toBe(true);
  }, 300_000);
});
