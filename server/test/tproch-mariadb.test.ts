import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mariadbDriver } from '@sledge/driver-mysql';
import type { TprochResult } from '@sledge/protocol';
import { get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';

/** MariaDB's TPROC-H hooks are on this build (helper SQL-LIVE's driver). */
const hasTproch = !!(mariadbDriver as { workloads: { tproch?: unknown } }).workloads.tproch;

/**
 * TPROC-H on MariaDB through REST: build SF 0.01 with 2 build VUs, check,
 * a power run with refresh (DOP 2), a throughput run with 2 streams plus
 * refresh, stop, delete. Database tpch_wl (root, no password).
 */
describe.skipIf(!hasTproch)('TPROC-H on MariaDB', () => {
  let s: SledgeApp;
  const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'tpch_wl' };
  const job = async (body: Record<string, unknown>) => {
    const r = await post(s, '/api/v1/jobs', { workload: 'tproch', target, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return waitJob(s, String(r.body.id));
  };

  beforeAll(async () => {
    s = await makeApp();
    await job({ type: 'delete' });
  });
  afterAll(async () => {
    const del = await post(s, '/api/v1/jobs', { type: 'delete', workload: 'tproch', target });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s?.app.close();
  });

  it('builds SF 0.01 and passes check', async () => {
    const b = await job({ type: 'build', tproch: { scaleFactor: 0.01, buildVus: 2 } });
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
    const progress = await get<{ expected: Record<string, number>; workers: { rows: Record<string, number> }[] }>(s, `/api/v1/jobs/${b.id}/progress`);
    const loaded: Record<string, number> = {};
    for (const w of progress.workers) for (const [t, n] of Object.entries(w.rows)) loaded[t] = (loaded[t] ?? 0) + n;
    expect(loaded).toEqual(progress.expected);
    const c = await job({ type: 'check' });
    expect(c.status, JSON.stringify(c.error)).toBe('completed');
  });

  it('power run with refresh: 22 queries, Power@Size, plans', async () => {
    const j = await job({ type: 'run', tproch: { scaleFactor: 0.01, refresh: true, dop: 2 } });
    expect(j.status, JSON.stringify(j.error)).toBe('completed');
    const r = j.result as TprochResult;
    expect(r.queries).toHaveLength(22);
    expect(r.errors).toBe(0);
    expect(r.queries.every((q) => q.rows >= 0 && q.seconds >= 0)).toBe(true);
    expect(r.streamResults[0]!.queriesReturningRows).toBeGreaterThanOrEqual(18);
    expect(r.powerAtSize).toBeGreaterThan(0);
    const plans = await get<{ query: number; plan: string }[]>(s, `/api/v1/jobs/${j.id}/plans`);
    expect(plans).toHaveLength(22);
  });

  it('throughput run with 2 streams and refresh, then the schema still checks', async () => {
    const j = await job({ type: 'run', tproch: { scaleFactor: 0.01, mode: 'throughput', streams: 2, refresh: true, trickleMs: 0, explain: false } });
    expect(j.status, JSON.stringify(j.error)).toBe('completed');
    const r = j.result as TprochResult;
    expect(r.queries).toHaveLength(44);
    expect(r.refreshes).toHaveLength(1);
    expect(r.refreshes[0]!.update).toBe(2);
    expect(r.throughputAtSize).toBeGreaterThan(0);
    const c = await job({ type: 'check' });
    expect(c.status, JSON.stringify(c.error)).toBe('completed');
  });

  it('stops a throughput run within a few seconds (running queries cancelled on the server)', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, tproch: { scaleFactor: 0.01, mode: 'throughput', streams: 2, querySets: 100, explain: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring']);
    await new Promise((res) => setTimeout(res, 1000));
    const t0 = Date.now();
    await post(s, `/api/v1/jobs/${id}/stop`, {});
    const j = await waitJob(s, id, 10_000);
    expect(j.status).toBe('stopped');
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
