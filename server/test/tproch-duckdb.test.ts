import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capabilities, TprochResult } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

interface OutputPage {
  lines: { vu: number; text: string }[];
}
const output = async (s: SledgeApp, id: string) => (await get<OutputPage>(s, `/api/v1/jobs/${id}/output?limit=5000`)).lines;

/**
 * TPROC-H on DuckDB through REST, on a DuckDB file in the server's data
 * directory: build SF 0.01 (2 build VUs staging files, one COPY per table),
 * check, a power run with refresh and plans, DOP as threads, and the
 * capabilities entry that says TPROC-C is not offered (and a TPROC-C job
 * refused with the reason).
 */
describe('TPROC-H on DuckDB', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'duckdb', file: 'tproch-wl.duckdb' };

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('capabilities list DuckDB with TPROC-H, DOP, and TPROC-C as schema only with the reason', async () => {
    const caps = await get<Capabilities>(s, '/api/v1/capabilities');
    const d = caps.engines.find((e) => e.engine === 'duckdb')!;
    expect(d).toMatchObject({ displayName: 'DuckDB', available: true, library: '@duckdb/node-api' });
    expect(d.workloads).toEqual(expect.arrayContaining(['tproch', 'script', 'tprocc', 'chbench']));
    expect(d.libraryVersion).toMatch(/DuckDB v\d+\.\d+/);
    expect(d.workloadFeatures?.['tproch']).toEqual({ dop: true });
    expect(d.limited?.['tprocc']).toMatch(/optimistic concurrency/);
  });

  it('builds SF 0.01 with 2 build VUs, exact counts per table, and passes check', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: 0.01, buildVus: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const progress = await get<{ phase: string; expected: Record<string, number>; workers: { worker: number; rows: Record<string, number> }[] }>(s, `/api/v1/jobs/${job.id}/progress`);
    expect(progress.phase).toBe('done');
    expect(progress.expected).toMatchObject({ region: 5, nation: 25, supplier: 100, customer: 1500, part: 2000, partsupp: 8000, orders: 15000 });
    const lines = (await output(s, job.id)).map((l) => l.text);
    expect(lines).toContain('TPCH SCHEMA COMPLETE');
    expect(lines.some((l) => l.startsWith('DBVersion:'))).toBe(true);
    expect(lines).toContain('bulk load of the staged rows (COPY)');
    // The staged files are gone once COPY has read them; the database file is where the target said.
    expect(existsSync(join(s.dataDir, 'files', 'tproch-wl.duckdb.load')) || existsSync(join(s.dataDir, 'tproch-wl.duckdb.load'))).toBe(false);

    const c = await post(s, '/api/v1/jobs', { type: 'check', workload: 'tproch', target });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const check = await waitJob(s, String(c.body.id));
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
    const items = await get<{ name: string; ok: boolean }[]>(s, `/api/v1/jobs/${check.id}/check`);
    expect(items.map((i) => i.ok)).toEqual([true, true, true]);
  });

  it('target test: TPROC-H schema state when TPROC-H is asked for; no TPROC-C schema (the default) in a TPROC-H file', async () => {
    const built = await post(s, '/api/v1/targets/test', { target, workload: 'tproch' });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body).toMatchObject({ version: expect.stringMatching(/^v?\d+\.\d+/), workload: 'tproch', schema: { exists: true, warehouses: 0, scaleFactor: 0.01 } });
    const empty = await post(s, '/api/v1/targets/test', { target: { engine: 'duckdb', file: 'tproch-wl-empty.duckdb' }, workload: 'tproch' });
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body).toMatchObject({ workload: 'tproch', schema: { exists: false, scaleFactor: 0 } });
    const tprocc = await post(s, '/api/v1/targets/test', { target });
    expect(tprocc.status, JSON.stringify(tprocc.body)).toBe(200);
    expect(tprocc.body).toMatchObject({ schema: { exists: false, warehouses: 0 } });
    const unknown = await post(s, '/api/v1/targets/test', { target, workload: 'nope' });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.body).toMatchObject({ error: { field: 'workload' } });
  });

  it('refuses a second build on the same file', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: 0.01 } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' } });
  });

  it('power run with refresh and DOP 2: 22 timed queries, geomean, Power@Size, EXPLAIN plans', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, seed: 7, tproch: { scaleFactor: 0.01, mode: 'power', refresh: true, explain: true, dop: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body.id);
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as TprochResult;
    expect(res.mode).toBe('power');
    expect(res.queries).toHaveLength(22);
    expect(res.errors).toBe(0);
    expect(res.queries.filter((q) => q.rows > 0).length).toBeGreaterThanOrEqual(18);
    expect(res.refreshes).toHaveLength(1);
    expect(res.geomean).toBeGreaterThan(0);
    expect(res.powerAtSize).toBeGreaterThan(0);
    const lines = (await output(s, id)).map((l) => l.text);
    expect(lines).toContain('Executing Query 14 (1 of 22)');
    expect(lines).toContain(res.line);
    const plans = await get<{ query: number; plan: string }[]>(s, `/api/v1/jobs/${id}/plans`);
    expect(plans.map((p) => p.query).sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    // DuckDB's physical plan: Q1 scans LINEITEM.
    expect(plans.find((p) => p.query === 1)!.plan).toMatch(/lineitem/i);
    // Each query's process CPU (DuckDB runs in the server's process) in the result, and DuckDB's profile of each
    // query as it ran: Q1's operators with their own times, its scan of LINEITEM producing the table's rows that pass.
    for (const q of res.queries) expect(q.cpuSeconds).toBeGreaterThanOrEqual(0);
    type Op = { depth: number; name: string; seconds: number; rows: number; detail?: string };
    const profiles = await get<{ stream: number; set: number; query: number; position: number; profile: { seconds: number; operators: Op[] } }[]>(s, `/api/v1/jobs/${id}/profiles`);
    expect(profiles.map((p) => p.query).sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    const q1 = profiles.find((p) => p.query === 1)!;
    expect(q1).toMatchObject({ stream: 0, set: 1, position: res.queries.find((q) => q.query === 1)!.position });
    expect(q1.profile.operators[0]!.depth).toBe(0);
    const scan = q1.profile.operators.find((o) => /SCAN/.test(o.name) && /lineitem/i.test(o.detail ?? ''))!;
    expect(scan.rows).toBeGreaterThan(50_000);
    expect(q1.profile.operators.find((o) => /GROUP_BY/.test(o.name))?.rows).toBe(res.queries.find((q) => q.query === 1)!.rows);
    // The run recorded duckdb_settings() (docs/compare.md); DuckDB keeps no statement counters.
    const settings = await get<{ settings: { name: string; value: string; source?: string }[]; withheld: string[]; unavailable?: string }>(s, `/api/v1/jobs/${id}/settings`);
    expect(settings.unavailable).toBeUndefined();
    expect(settings.settings.find((x) => x.name === 'threads')?.value).toMatch(/^\d+$/);
    // Withheld by name: DuckDB's password settings (and, conservatively, its secret-manager switches); a secret's directory is a path and kept.
    expect(settings.withheld).toEqual(expect.arrayContaining(['http_proxy_password', 'password']));
    expect(settings.settings.filter((x) => /secret|token|password/i.test(x.name)).map((x) => x.name)).toEqual(['secret_directory']);
    const statements = await get<{ unavailable?: string }>(s, `/api/v1/jobs/${id}/statements`);
    expect(statements.unavailable).toBe('not available: duckdb keeps no per-statement counters');
  });

  it('refuses a TPROC-C run on DuckDB with the reason, naming the engine field', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 1 } });
    expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'target.engine' } });
    expect(JSON.stringify(r.body)).toMatch(/optimistic concurrency/);
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
