import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerWorkload, type Job, type JobList, type ServerFrame, type TimingRow } from '@sledge/protocol';
import { registerWorkloadRunner } from '../dist/workloads/index.js';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { NOOP_DEF } from './fixtures/noop/protocol.js';
import { noopRunner } from './fixtures/noop/runner.js';

/**
 * A new workload is a folder per layer plus one line in each of two
 * registries: the test-only `noop` workload (fixtures/noop/, nothing shipped)
 * runs `SELECT 1` on SQLite through the real runner, counters, job store and
 * WebSocket frames.
 */
describe('a workload added by a test fixture (noop)', () => {
  let s: SledgeApp;
  let base: string;
  let unregister: () => void;
  const target = { engine: 'sqlite', file: 'noop.sqlite' };

  beforeAll(async () => {
    // The two registrations: protocol's and the server's.
    unregister = registerWorkload(NOOP_DEF);
    registerWorkloadRunner(noopRunner);
    s = await makeApp();
    base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await s?.app.close();
    unregister?.();
  });

  it('is one file per layer, in the fixture folder only', () => {
    expect(readdirSync(new URL('./fixtures/noop/', import.meta.url)).sort()).toEqual(['protocol.ts', 'runner.ts', 'sqlite.mjs', 'workload.mjs']);
  });

  it('runs timed through the generic runner, streams its op over the WebSocket, and stores its headline', async () => {
    const frames: ServerFrame[] = [];
    const ws = new WebSocket(base.replace('http', 'ws') + '/api/v1/ws');
    await new Promise((res) => ws.on('open', res));
    ws.on('message', (m) => frames.push(JSON.parse(String(m)) as ServerFrame));

    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'noop', target, noop: { vus: 2, rampup: 0, duration: 0.05 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body.id);
    ws.send(JSON.stringify({ t: 'subscribe', jobId: id }));
    const job = await waitJob(s, id, 60_000);
    await new Promise((res) => setTimeout(res, 300));
    ws.close();
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(job.workload).toBe('noop');

    // The job store: the workload's result and its headline.
    const result = job.result as unknown as { opm: number; ops: number; line: string };
    expect(result.ops).toBeGreaterThan(0);
    expect(result.opm).toBeGreaterThan(0);
    expect(result.line).toBe(`TEST RESULT : noop achieved ${result.opm} ops per minute`);
    // The store's result row (the store's own connection; the REST job does not carry these columns).
    const db = (s.store as unknown as { db: { prepare(q: string): { get(...a: unknown[]): unknown } } }).db;
    expect(db.prepare('SELECT workload, metric, value, unit FROM job_result WHERE job_id = ?').get(id)).toEqual({ workload: 'noop', metric: 'opm', value: result.opm, unit: 'ops/min' });
    expect(s.store.bestJobs('noop')).toEqual({ sqlite: id });

    // The shared counters, by the workload's op: select1 ran, no errors.
    const tc = await get<{ client: { rates: Record<string, number>; commits: number; rollbacks: number; errors: number }[] }>(s, `/api/v1/jobs/${id}/tcount`);
    expect(tc.client.reduce((a, c) => a + (c.rates['select1'] ?? 0), 0)).toBeGreaterThan(0);
    expect(tc.client.reduce((a, c) => a + c.errors, 0)).toBe(0);
    const timing = await get<TimingRow[]>(s, `/api/v1/jobs/${id}/timing`);
    const summary = timing.filter((t) => t.vu === 0);
    expect(summary.map((t) => t.proc)).toEqual(['SELECT1']);
    expect(summary[0]!.calls).toBeGreaterThan(0);

    // The frames: a snapshot, then live frames keyed by the op name.
    expect(frames[0]?.t).toBe('snapshot');
    const live = frames.filter((f) => f.t === 'tcount');
    expect(live.length).toBeGreaterThan(0);
    expect(JSON.stringify(live)).toContain('"select1"');
    expect(JSON.stringify(frames)).not.toContain('neworder');
    expect(frames.some((f) => f.t === 'status' && JSON.stringify(f).includes('completed'))).toBe(true);

    // GET by id, the list filtered by workload, and the export show it.
    const got = await get<Job>(s, `/api/v1/jobs/${id}`);
    expect(got.workload).toBe('noop');
    expect(got.result).toEqual(job.result);
    const list = await get<JobList>(s, `/api/v1/jobs?workload=noop`);
    expect(list.jobs.map((j) => j.id)).toEqual([id]);
    // The list's one-line summary is the workload's headline, not TPROC-C's NOPM/TPM.
    expect(list.jobs[0]!.summary).toBe(`${result.opm} ops/min`);
    const exp = await get<{ job: Job }>(s, `/api/v1/jobs/${id}/export?format=json`);
    expect(exp.job.workload).toBe('noop');
    expect((exp.job.result as unknown as { opm: number }).opm).toBe(result.opm);
  });

  it('runs in test mode: every VU runs its operations and prints each', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'noop', target, noop: { driver: 'test', vus: 2, ops: 25 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id), 60_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=10000`);
    expect(out.lines.filter((l) => l.text.includes('SELECT 1')).length).toBeGreaterThanOrEqual(50);
  });

  it('refuses options the workload does not have, and other job types', async () => {
    const bad = await post(s, '/api/v1/jobs', { type: 'run', workload: 'noop', target, noop: { warehouses: 1 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('noop');
    const build = await post(s, '/api/v1/jobs', { type: 'build', workload: 'noop', target });
    expect(build.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(build.body)).toContain('only runs');
  });

  it('leaves TPROC-C jobs in the same server working', async () => {
    const t = { engine: 'sqlite', file: 'tprocc.sqlite' };
    const b = await waitJob(s, String((await post(s, '/api/v1/jobs', { type: 'build', target: t, tprocc: { warehouses: 1 } })).body.id));
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: t, tprocc: { vus: 1, rampup: 0, duration: 0.05 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(job.workload).toBe('tprocc');
    expect(job.result!.nopm).toBeGreaterThan(0);
    const db = (s.store as unknown as { db: { prepare(q: string): { get(...a: unknown[]): unknown } } }).db;
    expect(db.prepare('SELECT workload, metric, unit FROM job_result WHERE job_id = ?').get(job.id)).toEqual({ workload: 'tprocc', metric: 'nopm', unit: 'NOPM' });
  });
});
