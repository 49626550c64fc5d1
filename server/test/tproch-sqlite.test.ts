import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tprochOldSalesKeys } from '@sledge/core';
import type { Job, TprochResult } from '@sledge/protocol';
import { get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';

interface OutputPage {
  lines: { vu: number; text: string }[];
}
const output = async (s: SledgeApp, id: string) => (await get<OutputPage>(s, `/api/v1/jobs/${id}/output?limit=5000`)).lines;

/**
 * TPROC-H on SQLite through REST: build SF 0.01 (monitor + 2 build VUs),
 * check, a power run with refresh, a throughput run with 2 streams and a
 * refresh stream, plans, an SF mismatch, stop, bad input, delete.
 */
describe('TPROC-H on SQLite', () => {
  let s: SledgeApp;
  const target = { engine: 'sqlite', file: 'tproch-wl.sqlite' };
  const run = async (tproch: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, tproch, seed: 7, ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return String(r.body.id);
  };

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('builds SF 0.01 with 2 build VUs, exact counts per table, and passes check', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: 0.01, buildVus: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const progress = await get<{ phase: string; expected: Record<string, number>; workers: { worker: number; rows: Record<string, number> }[] }>(s, `/api/v1/jobs/${job.id}/progress`);
    expect(progress.phase).toBe('done');
    expect(progress.workers.map((w) => w.worker)).toEqual([1, 2, 3]);
    const loaded: Record<string, number> = {};
    for (const w of progress.workers) for (const [t, n] of Object.entries(w.rows)) loaded[t] = (loaded[t] ?? 0) + n;
    expect(loaded).toEqual(progress.expected);
    expect(progress.expected).toMatchObject({ region: 5, nation: 25, supplier: 100, customer: 1500, part: 2000, partsupp: 8000, orders: 15000 });
    const lines = (await output(s, job.id)).map((l) => l.text);
    // SQLite names no database: HammerDB's schema name is the default one.
    expect(lines).toContain('TPCH SCHEMA COMPLETE');
    expect(lines.some((l) => l.includes('0.01 (non-standard)'))).toBe(true);

    const c = await post(s, '/api/v1/jobs', { type: 'check', workload: 'tproch', target });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const check = await waitJob(s, String(c.body.id));
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
    const items = await get<{ name: string; ok: boolean }[]>(s, `/api/v1/jobs/${check.id}/check`);
    expect(items.map((i) => i.ok)).toEqual([true, true, true]);
  });

  it('refuses a second build on the same file', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: 0.01 } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' } });
  });

  it('power run with refresh: 22 query times in row 0 order, geomean, Power@Size, plans', async () => {
    const id = await run({ scaleFactor: 0.01, mode: 'power', refresh: true, explain: true });
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = job.result as TprochResult;
    expect(r.mode).toBe('power');
    expect(r.standardScale).toBe(false);
    expect(r.queries).toHaveLength(22);
    expect(r.queries.map((q) => q.query)).toEqual([14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19, 5, 7, 12]);
    expect(r.errors).toBe(0);
    expect(r.refreshes).toHaveLength(1);
    expect(r.refreshes[0]!.update).toBe(1);
    expect(r.refreshes[0]!.orders).toBe(tprochOldSalesKeys(0.01, 1).length);
    expect(r.geomean).toBeGreaterThan(0);
    expect(r.powerAtSize).toBeGreaterThan(0);
    expect(r.qphh).toBeUndefined();
    expect(r.metricsNote).toContain('not TPC results');
    expect(r.line).toBe(`Geometric mean of query times returning rows (${r.streamResults[0]!.queriesReturningRows}) is ${r.geomean.toFixed(5)}`);
    const lines = (await output(s, id)).map((l) => l.text);
    expect(lines).toContain('Executing Query 14 (1 of 22)');
    expect(lines.some((l) => /^query 12 completed in \d+\.\d{3} seconds$/.test(l))).toBe(true);
    expect(lines.some((l) => /^New Sales refresh complete in/.test(l))).toBe(true);
    expect(lines.some((l) => /^Old Sales refresh complete in/.test(l))).toBe(true);
    expect(lines.some((l) => /^Completed 1 query set\(s\) in \d+ seconds$/.test(l))).toBe(true);
    expect(lines).toContain(r.line);
    const plans = await get<{ query: number; plan: string; sql?: string }[]>(s, `/api/v1/jobs/${id}/plans`);
    expect(plans.map((p) => p.query).sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(plans.every((p) => p.plan.length > 0)).toBe(true);
    // Each plan comes with the query text it explains, parameters filled in.
    expect(plans.every((p) => typeof p.sql === 'string' && /\bselect\b/i.test(p.sql))).toBe(true);
    expect(plans.find((p) => p.query === 1)!.sql).toMatch(/from\s+lineitem/i);
    expect(plans.find((p) => p.query === 1)!.sql).not.toContain('{{');
    const exp = await get<{ metrics: Record<string, { data: { phase: string; fn?: string } }[]> }>(s, `/api/v1/jobs/${id}/export`);
    expect(exp.metrics['tproch-query']!.filter((m) => m.data.phase === 'end')).toHaveLength(22);
    expect(exp.metrics['tproch-query']!.filter((m) => m.data.phase === 'start')).toHaveLength(22);
    expect(exp.metrics['tproch-refresh']!.map((m) => `${m.data.fn} ${m.data.phase}`)).toEqual(['rf1 start', 'rf1 end', 'rf2 start', 'rf2 end']);
    expect(exp.metrics['tproch-plan']).toHaveLength(22);
  });

  it('throughput run with 2 streams and a refresh stream; counts back after RF1+RF2', async () => {
    const id = await run({ scaleFactor: 0.01, mode: 'throughput', streams: 2, refresh: true, updateSets: 2, trickleMs: 0, explain: false });
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = job.result as TprochResult;
    expect(r.streams).toBe(2);
    expect(r.queries).toHaveLength(44);
    expect(r.streamResults.map((x) => x.stream)).toEqual([1, 2]);
    expect(r.queries.filter((q) => q.stream === 1).map((q) => q.query).slice(0, 3)).toEqual([21, 3, 18]);
    expect(r.refreshes.map((x) => x.update)).toEqual([2, 3]);
    expect(r.throughputAtSize).toBeGreaterThan(0);
    expect(r.geomean).toBe(Math.max(...r.streamResults.map((x) => x.geomean)));
    const out = await output(s, id);
    // With refresh, VU 1 runs the refresh stream and stream s is VU s+1.
    expect(out.some((l) => l.vu === 1 && l.text === 'Completed 2 update set(s)')).toBe(true);
    expect(out.some((l) => l.vu === 2 && l.text === 'Executing Query 21 (1 of 22)')).toBe(true);
    expect(out.some((l) => l.vu === 3 && l.text === 'Executing Query 6 (1 of 22)')).toBe(true);
    const c = await post(s, '/api/v1/jobs', { type: 'check', workload: 'tproch', target });
    const check = await waitJob(s, String(c.body.id));
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
  });

  it('auto-corrects an SF that does not match the schema, visibly', async () => {
    const id = await run({ scaleFactor: 1, mode: 'power', querySets: 1, explain: false, validation: true });
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect((job.result as TprochResult).scaleFactor).toBe(0.01);
    expect((job.result as TprochResult).validation).toBe(true);
    expect((job.result as TprochResult).metricsNote).toContain('22 queries only');
    const lines = (await output(s, id)).map((l) => l.text);
    expect(lines).toContain("Scale factor 1 does not match the schema's (count(supplier)/10000 = 0.01): setting the scale factor to 0.01");
  });

  it('stops a run within a few seconds', async () => {
    const id = await run({ scaleFactor: 0.01, mode: 'throughput', streams: 2, querySets: 50, explain: false });
    await waitStatus(s, id, ['measuring']);
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    const st = await post(s, `/api/v1/jobs/${id}/stop`, {});
    expect(st.status).toBeLessThan(300);
    const job: Job = await waitJob(s, id, 10_000);
    expect(job.status).toBe('stopped');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('refuses bad input naming the field', async () => {
    const bad = async (tproch: Record<string, unknown>, field: string) => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, tproch });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(JSON.stringify(r.body)).toContain(field);
    };
    await bad({ scaleFactor: 0 }, 'tproch.scaleFactor');
    await bad({ scaleFactor: -1 }, 'tproch.scaleFactor');
    await bad({ mode: 'throughput', streams: 0 }, 'tproch.streams');
    await bad({ queryTimeoutSec: -1 }, 'tproch.queryTimeoutSec');
    await bad({ querySets: 0 }, 'tproch.querySets');
  });

  it('deletes the schema; a run then has no schema', async () => {
    const d = await post(s, '/api/v1/jobs', { type: 'delete', workload: 'tproch', target });
    const job = await waitJob(s, String(d.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, tproch: { scaleFactor: 0.01 } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SCHEMA_MISSING' } });
  });
});
