import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capabilities, ChbenchResult, Job } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

/**
 * CH-benCHmark on DuckDB through REST (no database server, no DB lock): a
 * one-warehouse TPROC-C schema plus REGION, NATION and SUPPLIER built
 * through DuckDB's bulk path into the default chbench.duckdb of the server's
 * data directory, checked, then an analytic-only run (tprocc.vus 0) whose
 * stream runs the 22 queries. A run with VUs and any TPROC-C run are refused
 * before they are stored, with the reason: DuckDB runs no TPROC-C
 * transactions.
 */
describe('CH-benCHmark on DuckDB (analytic streams only)', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'duckdb' };
  const job = async (body: Record<string, unknown>): Promise<Job> => {
    const r = await post(s, '/api/v1/jobs', { workload: 'chbench', target, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return waitJob(s, String(r.body.id));
  };
  const output = async (j: Job) => (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${j.id}/output?limit=5000`)).lines.map((l) => l.text);
  const file = () => join(s.dataDir, 'files', 'chbench.duckdb');

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('capabilities offer TPROC-C (schema only) and CH-benCHmark (analytic streams only) on DuckDB, and say why', async () => {
    const caps = await get<Capabilities>(s, '/api/v1/capabilities');
    const d = caps.engines.find((e) => e.engine === 'duckdb')!;
    expect(d.workloads).toEqual(expect.arrayContaining(['tproch', 'tprocc', 'chbench']));
    expect(d.notOffered?.['tprocc']).toBeUndefined();
    // No VU loop: DuckDB's VUs never run.
    expect(d.vuLoop).toBeUndefined();
    expect(d.limited?.['tprocc']).toMatch(/^Schema only .*optimistic concurrency/);
    expect(d.limited?.['chbench']).toMatch(/^Analytic streams only: runs take tprocc.vus 0/);
    // Engines that run TPROC-C's transactions have no limits.
    expect(caps.engines.find((e) => e.engine === 'sqlite')!.limited).toBeUndefined();
  });

  it('builds 1 warehouse and the three tables into chbench.duckdb, and checks', async () => {
    const b = await job({ type: 'build', tprocc: { warehouses: 1, buildVus: 1 } });
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
    const lines = (await output(b)).join('\n');
    expect(lines).toContain('Loading the staged rows');
    expect(lines).toContain('CH-benCHmark tables loaded: 5 regions, 62 nations, 10000 suppliers');
    expect(existsSync(file()) || existsSync(join(s.dataDir, 'chbench.duckdb'))).toBe(true);
    const c = await job({ type: 'check' });
    expect(c.status, JSON.stringify(c.error)).toBe('completed');
    const items = await get<{ name: string; ok: boolean; detail: string }[]>(s, `/api/v1/jobs/${c.id}/check`);
    expect(items.filter((i) => !i.ok)).toEqual([]);
    expect(items.map((i) => i.name)).toEqual(expect.arrayContaining(['C1: w_ytd = sum(d_ytd)', 'REGION rows', 'NATION rows', 'SUPPLIER rows']));
  }, 300_000);

  it('refuses a run with TPROC-C VUs, and a TPROC-C run, with the reason and the fix', async () => {
    const mixed = await post(s, '/api/v1/jobs', { workload: 'chbench', target, type: 'run', tprocc: { vus: 2, rampup: 0, duration: 0.05 } });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'tprocc.vus' } });
    expect(JSON.stringify(mixed.body)).toMatch(/set tprocc.vus to 0.*Conflict on update/);
    const tprocc = await post(s, '/api/v1/jobs', { type: 'run', target: { engine: 'duckdb', file: 'chbench.duckdb' }, tprocc: { vus: 1, rampup: 0, duration: 0.05 } });
    expect(tprocc.status).toBeGreaterThanOrEqual(400);
    expect(tprocc.body).toMatchObject({ error: { code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'target.engine' } });
    const nothing = await post(s, '/api/v1/jobs', { workload: 'chbench', target, type: 'run', tprocc: { vus: 0 }, chbench: { analyticStreams: 0 } });
    expect(nothing.status).toBe(400);
    expect(nothing.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION' } });
  });

  it('runs one analytic stream alone (tprocc.vus 0) over the 22 queries, no query failing', async () => {
    const r = await job({ type: 'run', tprocc: { vus: 0, rampup: 0, duration: 0.1 }, chbench: { analyticStreams: 1 } });
    expect(r.status, JSON.stringify(r.error)).toBe('completed');
    const res = r.result as ChbenchResult;
    expect(res).toMatchObject({ nopm: 0, tpm: 0, activeVus: 0, warehouses: 1 });
    expect(res.analytic.streams).toBe(1);
    expect(res.analytic.errors).toBe(0);
    expect(res.analytic.perQuery).toHaveLength(22);
    const done = res.analytic.queries.filter((q) => q.inWindow);
    expect(done.length).toBe(res.analytic.completedQueries);
    expect(done.every((q) => q.stream === 1 && !q.error)).toBe(true);
    // The stream starts its pass at Q1 and runs the queries in order.
    expect(done.map((q) => q.query)).toEqual(done.map((_, i) => (i % 22) + 1));
    const lines = (await output(r)).join('\n');
    expect(lines).toContain('No TPROC-C virtual users (tprocc.vus 0): the analytic streams alone (duckdb runs no TPROC-C transactions)');
    expect(lines).toContain('TEST RESULT : no TPROC-C transactions');
    // A verdict of its own: the transactional checks skipped, the window's queries judged.
    expect(res.validity?.status).toBe('pass');
    expect(res.validity?.checks.map((c) => [c.id, c.status])).toEqual([['transactions', 'skip'], ['analytic-window', 'pass'], ['analytic-errors', 'pass']]);
    expect(lines).toMatch(/Validity check Analytic queries in the window: PASS - \d+ queries of 1 stream\(s\)/);
    expect(lines).toContain('Validity verdict: PASS (2 passed, 0 warned, 0 failed, 1 skipped)');
  }, 300_000);

  it('deletes the schema: the file goes', async () => {
    const d = await job({ type: 'delete' });
    expect(d.status, JSON.stringify(d.error)).toBe('completed');
    expect(existsSync(file()) || existsSync(join(s.dataDir, 'chbench.duckdb'))).toBe(false);
  });
});
