import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driver as pgDriver } from '@sledge/driver-postgresql';
import { answerSetOf, compareTprochAnswer, parseAnswerSet, tprochHooks, tprochQueryParams, tprochQueryText, tprochStreams, type TprochStream } from '@sledge/core';
import { sqlSet, tprochAnswerText, type SqlWorkload } from '@sledge/sql';
import type { PostgresqlTarget, TprochResult } from '@sledge/protocol';
import { get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';

/** PostgreSQL's TPROC-H hooks are on this build (helper SQL-LIVE's driver). */
const hasTproch = !!(pgDriver as { workloads: { tproch?: unknown } }).workloads.tproch;

/**
 * TPROC-H on PostgreSQL through REST: build SF 0.01 with 2 build VUs, check,
 * a power run with refresh (DOP 2), a throughput run with 2 streams plus
 * refresh, delete. Database and user tpch_wl.
 */
describe.skipIf(!hasTproch)('TPROC-H on PostgreSQL', () => {
  let s: SledgeApp;
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'tpch_wl', password: 'tpch-wl-pw', database: 'tpch_wl', superuser: 'postgres', superuserPassword: 'postgres' };
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

  it("validation answers at SF 0.01 agree between a serial and a parallel session by the SF 1 answer check's comparator", async () => {
    const pgTarget: PostgresqlTarget = { ...target, port: 5432, defaultDatabase: 'postgres', sslmode: 'prefer', vacuum: false, prepared: true, noStoredProcs: false } as PostgresqlTarget;
    const hooks = tprochHooks(pgDriver);
    const sql = sqlSet('postgresql', tprochStreams.sqlArea as SqlWorkload).statements(tprochStreams.sqlFile);
    const params = tprochQueryParams({ seed: 1, stream: 0, set: 1, scaleFactor: 0.01, validation: true });
    const sessions: TprochStream[] = [];
    try {
      for (const dop of [1, 2]) sessions.push(await hooks.openStream(pgTarget, { stream: dop, dop, queryTimeoutSec: 0, log: () => undefined }));
      let returning = 0;
      for (let q = 1; q <= 22; q++) {
        const text = tprochQueryText(sql, q, params[q]!);
        const [a, b] = [await sessions[0]!.query(text, { fetch: true }), await sessions[1]!.query(text, { fetch: true })];
        const columns = parseAnswerSet(tprochAnswerText(q)).columns;
        expect(a.data![0]?.length ?? columns.length, `Q${q} columns`).toBe(columns.length);
        if (a.rows > 0) returning++;
        expect(compareTprochAnswer(q, answerSetOf(columns, a.data!), b.data!), `Q${q}`).toMatchObject({ status: 'pass' });
      }
      expect(returning).toBeGreaterThanOrEqual(18);
    } finally {
      for (const x of sessions) await x.close();
    }
  });

  it('power run with refresh and DOP 2: 22 queries, Power@Size, plans', async () => {
    const j = await job({ type: 'run', tproch: { scaleFactor: 0.01, refresh: true, dop: 2 } });
    expect(j.status, JSON.stringify(j.error)).toBe('completed');
    const r = j.result as TprochResult;
    expect(r.queries).toHaveLength(22);
    expect(r.errors).toBe(0);
    expect(r.queries.every((q) => q.rows >= 0 && q.seconds >= 0)).toBe(true);
    expect(r.streamResults[0]!.queriesReturningRows).toBeGreaterThanOrEqual(18);
    expect(r.powerAtSize).toBeGreaterThan(0);
    expect(r.dop).toBe(2);
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

  it('performance test: power then throughput (2 streams, refresh) in one job, the three scores by their formulas; validation at SF 0.01 says the answer set is SF 1', async () => {
    const j = await job({ type: 'run', tproch: { scaleFactor: 0.01, mode: 'performance', streams: 2, refresh: true, trickleMs: 0, explain: false, validation: true } });
    expect(j.status, JSON.stringify(j.error)).toBe('completed');
    const r = j.result as TprochResult;
    expect(r.mode).toBe('performance');
    expect(r.streams).toBe(2);
    expect(r.queries.filter((q) => q.stream === 0)).toHaveLength(22);
    expect(r.queries.filter((q) => q.stream > 0)).toHaveLength(44);
    expect(r.errors).toBe(0);
    // Power's RF1/RF2 use the next free update set, the refresh stream's the one after.
    expect(r.refreshes.map((f) => f.update)).toEqual([3, 4]);
    const times = [...r.queries.filter((q) => q.stream === 0).map((q) => q.seconds), r.refreshes[0]!.rf1Seconds, r.refreshes[0]!.rf2Seconds];
    const max = Math.max(...times);
    const geo = Math.exp(times.reduce((a, t) => a + Math.log(Math.max(t, max / 1000)), 0) / 24);
    expect(r.powerAtSize).toBeCloseTo((3600 * 0.01) / geo, 6);
    expect(r.throughputAtSize).toBeCloseTo(((2 * 22 * 3600) / r.throughputSeconds!) * 0.01, 6);
    expect(r.qphh).toBeCloseTo(Math.sqrt(r.powerAtSize! * r.throughputAtSize!), 6);
    expect(r.elapsedSeconds).toBeCloseTo(r.powerSeconds! + r.throughputSeconds!, 6);
    expect(r.validity?.checks).toEqual([expect.objectContaining({ id: 'answers', status: 'skip', detail: expect.stringContaining('answer set is for scale factor 1') })]);
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
