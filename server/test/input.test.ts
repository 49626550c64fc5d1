import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capabilities, JobList } from '@sledge/protocol';
import { ensurePgAuthRole } from '@sledge/driver-postgresql/testing';
import { get, makeApp, post, type SledgeApp } from './helpers.js';

/** Bad input gets a typed 4xx naming what to fix, and creates no job. */
describe('job input validation and preflight', () => {
  let s: SledgeApp;
  const pg = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_srv_bad', password: 'pw', database: 'sledge_srv_bad', superuser: 'postgres' };
  const jobCount = async () => (await get<JobList>(s, '/api/v1/jobs')).total;

  beforeAll(async () => {
    // The wrong-password tests need one role whose password is checked: prepared here, idempotently.
    await ensurePgAuthRole({ host: '127.0.0.1', port: 5432, superuser: 'postgres' });
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('reports which drivers load (librarycheck)', async () => {
    const c = await get<Capabilities>(s, '/api/v1/capabilities');
    const by = Object.fromEntries(c.engines.map((e) => [e.engine, e]));
    expect(by['sqlite']?.available).toBe(true);
    expect(by['postgresql']?.available).toBe(true);
    expect(by['sqlite']?.features?.tpmSource).toBe('client');
    expect(c.engines).toHaveLength(8);
    // What each engine does with a workload's options: SQLite and MariaDB have no degree of parallelism, PostgreSQL has.
    expect(by['sqlite']?.workloadFeatures?.['tproch']).toEqual({ dop: false });
    expect(by['mariadb']?.workloadFeatures?.['tproch']).toEqual({ dop: false });
    expect(by['postgresql']?.workloadFeatures?.['tproch']).toEqual({ dop: true });
    expect(by['postgresql']?.workloadFeatures?.['tprocc']).toBeUndefined();
    // CH-benCHmark where TPROC-C's hooks are and the driver opens query sessions: every shipped driver.
    for (const e of c.engines) expect(e.workloads, e.engine).toContain('chbench');
    // DuckDB: TPROC-C's schema without its transactions, CH-benCHmark's analytic streams alone.
    expect(by['duckdb']?.notOffered).toBeUndefined();
    expect(by['duckdb']?.limited?.['tprocc']).toContain('optimistic concurrency');
    expect(by['duckdb']?.limited?.['chbench']).toContain('tprocc.vus 0');
  });

  it.each([
    [0, 'tprocc.warehouses'],
    [-1, 'tprocc.warehouses'],
    ['x', 'tprocc.warehouses'],
    [1e9, 'tprocc.warehouses'],
  ])('warehouses=%s -> 400 naming %s, no job', async (w, field) => {
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', { type: 'build', target: { engine: 'sqlite' }, tprocc: { warehouses: w } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field } });
    expect(await jobCount()).toBe(before);
  });

  it('unknown engine, build VUs > warehouses, bad JSON, unknown field', async () => {
    const before = await jobCount();
    let r = await post(s, '/api/v1/jobs', { type: 'run', target: { engine: 'mongodb' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_UNKNOWN_ENGINE', field: 'target.engine' } });
    r = await post(s, '/api/v1/jobs', { type: 'build', target: { engine: 'sqlite' }, tprocc: { warehouses: 2, buildVus: 3 } });
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'tprocc.buildVus' } });
    const raw = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: '{"type":', headers: { 'content-type': 'application/json' } });
    expect(raw.statusCode).toBe(400);
    expect(JSON.parse(raw.body).error.code).toBe('SLEDGE_E_VALIDATION');
    expect(raw.body).not.toMatch(/at .*\.js/); // never a stack trace
    r = await post(s, '/api/v1/jobs', { type: 'run', target: { engine: 'sqlite', fiel: 'x' } });
    expect(r.body).toMatchObject({ error: { field: 'target.fiel' } });
    expect(await jobCount()).toBe(before);
  });

  it('unreachable host -> 422 SLEDGE_E_CONNECT naming the port, no job', async () => {
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', { type: 'build', target: { ...pg, port: 1 } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_CONNECT' } });
    expect(String((r.body.error as { field: string }).field)).toMatch(/^target\.(host|port)$/);
    expect(await jobCount()).toBe(before);
  });

  it('wrong password -> 422 SLEDGE_E_AUTH, no job, password not echoed', async () => {
    // sledge_auth_test is a scram-sha-256 role prepared by ensurePgAuthRole in beforeAll (this machine trusts everyone else).
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', {
      type: 'build',
      target: { ...pg, superuser: 'sledge_auth_test', superuserPassword: 'not-the-password-x1', user: 'sledge_auth_test', password: 'not-the-password-x1' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_AUTH' } });
    expect(JSON.stringify(r.body)).not.toContain('not-the-password-x1');
    expect(await jobCount()).toBe(before);
  });

  it('a build whose TPC role exists but refuses the password -> 422 naming target.password, and no database is created', async () => {
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', {
      type: 'build',
      target: { ...pg, user: 'sledge_auth_test', password: 'not-the-password-x2', database: 'sledge_input_authdb' },
      tprocc: { warehouses: 1 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_AUTH', field: 'target.password' } });
    expect(JSON.stringify(r.body)).not.toContain('not-the-password-x2');
    expect(await jobCount()).toBe(before);
    const { execFileSync } = await import('node:child_process');
    const found = execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', "select count(*) from pg_database where datname = 'sledge_input_authdb'"]).toString().trim();
    expect(found).toBe('0');
  });

  it('a saved configuration supplies secrets sent back as "********" (configId)', async () => {
    const target = { ...pg, superuser: 'sledge_auth_test', superuserPassword: 'right-password', user: 'sledge_auth_test', password: 'right-password', database: 'postgres', defaultDatabase: 'postgres' };
    const saved = await post(s, '/api/v1/configs', { name: 'auth-test', target });
    expect(saved.status).toBe(201);
    const listed = saved.body as { id: number; target: Record<string, unknown> };
    expect(listed.target['password']).toBe('********');
    const masked = { ...target, password: '********', superuserPassword: '********' };
    const bad = await post(s, '/api/v1/targets/test', { target: masked });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: { code: 'SLEDGE_E_AUTH' } });
    const ok = await post(s, '/api/v1/targets/test', { target: masked, configId: listed.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(String(ok.body.version)).toMatch(/^\d+/);
    const missing = await post(s, '/api/v1/targets/test', { target: masked, configId: 999 });
    expect(missing.body).toMatchObject({ error: { code: 'SLEDGE_E_NOT_FOUND', field: 'configId' } });
  });

  it('run or check without a schema -> 422 SLEDGE_E_SCHEMA_MISSING, no job', async () => {
    const before = await jobCount();
    for (const type of ['run', 'check']) {
      const r = await post(s, '/api/v1/jobs', { type, target: { engine: 'sqlite', file: 'nothing-here.sqlite' }, tprocc: {} });
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SCHEMA_MISSING' } });
    }
    expect(await jobCount()).toBe(before);
  });

  it('three bad fields -> one 400 listing all three, no job', async () => {
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: { engine: 'sqlite', busyTimeoutMs: -1 }, tprocc: { vus: 0, rampup: 'soon' } });
    expect(r.status).toBe(400);
    const e = r.body.error as { code: string; field: string; errors: { field: string; message: string }[] };
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.errors.map((x) => x.field).sort()).toEqual(['target.busyTimeoutMs', 'tprocc.rampup', 'tprocc.vus']);
    expect(e.errors.every((x) => x.message.startsWith(x.field))).toBe(true);
    expect(await jobCount()).toBe(before);
  });

  it('a run with no workload options is refused with what to send (no 7-minute default run), no job', async () => {
    const before = await jobCount();
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: { engine: 'sqlite' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'tprocc' } });
    expect(await jobCount()).toBe(before);
  });

  it('unknown routes and jobs are typed 404s', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/v1/jobs/0123456789ABCDEF01234567' });
    expect(r.statusCode).toBe(404);
    expect(JSON.parse(r.body).error.code).toBe('SLEDGE_E_NOT_FOUND');
    const n = await s.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(n.statusCode).toBe(404);
  });
});
