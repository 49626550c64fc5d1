import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AshSample } from '@sledge/protocol';
import { makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/** Hold this thread (and so the server's event loop, which runs in it) for `ms`: a busy main thread, as on a loaded host. */
function holdEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy: timers (the ASH sampler's among them) fire late
  }
}

/**
 * SQLite's active session history is client-side: the VUs' own time executing
 * vs waiting for the write lock (issue 31 item 6). A run with 2 VUs never shows
 * more than 2 active sessions, and every second of the measured window has its
 * sample, even when the server's event loop is held up and the sampler's timer
 * fires 1.7 s late.
 */
describe('client-side ASH on SQLite', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'sqlite', file: 'ash.sqlite' };

  beforeAll(async () => {
    s = await makeApp();
    sqliteFromTemplate(s, target.file);
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('2 VUs: at most 2 active sessions in any second, one sample for every second of the window', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.2 } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring']);
    await new Promise((res) => setTimeout(res, 2500));
    holdEventLoop(1700);
    await new Promise((res) => setTimeout(res, 2500));
    holdEventLoop(1300);
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');

    const samples = s.store.getMetrics(id, 'ash', {}).map((m) => m.data as AshSample);
    const phases = s.store.getMetrics(id, 'phase', {}).map((m) => m.data as { ts: number; label: string });
    const from = phases.find((p) => p.label === 'measuring')!.ts;
    // The measured window: 0.2 minutes from the measuring phase.
    const to = from + 12_000;

    // Only the VUs are sessions here (sledge-vu-2, -3): the monitor's two readings of the schema are not activity in the window.
    expect([...new Set(samples.map((x) => x.session))].sort()).toEqual(['vu-2', 'vu-3']);
    const byInstant = new Map<number, number>();
    const byVuInstant = new Map<string, number>();
    for (const x of samples) {
      byInstant.set(x.ts, (byInstant.get(x.ts) ?? 0) + (x.weight ?? 1));
      byVuInstant.set(`${x.session}@${x.ts}`, (byVuInstant.get(`${x.session}@${x.ts}`) ?? 0) + (x.weight ?? 1));
    }
    const eps = 1e-9;
    expect.soft(Math.max(...byInstant.values())).toBeLessThanOrEqual(2 + eps);
    expect.soft(Math.max(...byVuInstant.values())).toBeLessThanOrEqual(1 + eps);
    // Every whole second of the window holds a sampling instant (instants are 1 s apart, none missing, none doubled).
    const instants = [...byInstant.keys()].sort((a, b) => a - b);
    const empty: number[] = [];
    for (let t = from; t + 1000 <= to; t += 1000) if (!instants.some((i) => i >= t && i < t + 1000)) empty.push(t - from);
    expect.soft(empty, `seconds without a sample (ms after the window opened)`).toEqual([]);
    const inWindow = instants.filter((i) => i > from && i <= to);
    for (let k = 1; k < inWindow.length; k++) expect.soft(inWindow[k]! - inWindow[k - 1]!, `instant ${inWindow[k]! - from} ms`).toBe(1000);
    // Two busy VUs: the window's average is close to 2 and never above it.
    const avg = inWindow.reduce((a, i) => a + byInstant.get(i)!, 0) / inWindow.length;
    expect(avg).toBeLessThanOrEqual(2 + eps);
    expect(avg).toBeGreaterThan(1);
  });
});
