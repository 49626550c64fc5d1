import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TproccResult } from '@sledge/protocol';
import { makeApp, post, waitJob, type SledgeApp } from './helpers.js';

/**
 * Issue 30 item 1: a connect pool must not carry a saved secret elsewhere.
 * A run with configId whose pool connection only overrides the port sent the
 * saved password to whatever listened there (a fake PostgreSQL, once per VU
 * connect). A pool connection that changes a field its secret is bound to
 * (host, port, user, sslmode) and brings no secret of its own is refused,
 * naming the field; one with its own password runs, and so does the saved
 * configuration's own pool connection (the password was typed with it).
 * Live PostgreSQL at 127.0.0.1:5432 (trust): run with flock /tmp/sledge-db.lock.
 */
describe('saved secrets and connect pools', () => {
  let s: SledgeApp;
  let fake: Server;
  let fakePort = 0;
  let connections = 0;
  const received: Buffer[] = [];
  const PASSWORD = 'Pool-B0und-pw-7731';
  const SUPER = 'Pool-Sup3r-pw-7731';
  const DB = 'sledge_bindpool';
  const typed = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: PASSWORD, database: DB, superuser: 'postgres', superuserPassword: SUPER };
  const masked = { ...typed, password: '********', superuserPassword: '********' };
  /** Saved with the typed password: its pool connection "nossl" (sslmode disable) inherits it, as the user saved it. */
  const savedPool = { connections: [{ name: 'nossl', sslmode: 'disable' }] };
  let configId = 0;
  const jobCount = () => s.store.listJobs({ limit: 1 }).total;
  const del = async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'delete', target: typed });
    if (r.status === 201) await waitJob(s, String(r.body.id));
  };

  beforeAll(async () => {
    s = await makeApp();
    fake = createServer((sock: Socket) => {
      connections++;
      sock.on('data', (d) => received.push(d));
      sock.on('error', () => undefined);
      // Never answers: a client would wait; the refusal must come before any connect.
      setTimeout(() => sock.destroy(), 2000).unref();
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    fakePort = (fake.address() as { port: number }).port;
    await del();
    const b = await post(s, '/api/v1/jobs', { type: 'build', target: typed, tprocc: { warehouses: 1 } });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect((await waitJob(s, String(b.body.id))).status).toBe('completed');
    const c = await post(s, '/api/v1/configs', { name: 'pooled', target: { ...typed, pool: savedPool } });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    configId = (c.body as { id: number }).id;
  }, 180_000);
  afterAll(async () => {
    await del();
    await s.app.close();
    await new Promise<void>((r) => fake.close(() => r()));
  }, 120_000);

  const nothingSent = async () => {
    await new Promise((r) => setTimeout(r, 200));
    expect(connections).toBe(0);
    const all = Buffer.concat(received).toString('latin1');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(SUPER);
  };

  it('a pool connection that only overrides the port, with configId: refused on every job type, the fake server gets 0 connections', async () => {
    const pool = { connections: [{ name: 'main' }, { name: 'evil', port: fakePort }] };
    const bodies = [
      { type: 'run', tprocc: { vus: 1, rampup: 0, duration: 0.05 } },
      { type: 'build', tprocc: { warehouses: 1 } },
      { type: 'check' },
      { type: 'delete' },
    ];
    for (const body of bodies) {
      const before = jobCount();
      const r = await post(s, '/api/v1/jobs', { ...body, target: { ...masked, pool }, configId });
      expect(r.status, `${body.type}: ${JSON.stringify(r.body)}`).toBe(400);
      const e = r.body.error as { code: string; field: string; message: string };
      expect(e.code).toBe('SLEDGE_E_VALIDATION');
      expect(e.field).toBe('target.pool.connections.1.password');
      expect(e.message).toMatch(/pool connection evil changes the target's port but has no password of its own.*type the password for that connection/);
      expect(jobCount()).toBe(before);
    }
    // The saved configuration's own connection moved elsewhere is no better.
    const moved = await post(s, '/api/v1/jobs', { ...bodies[0], target: { ...masked, pool: { connections: [{ name: 'nossl', sslmode: 'disable', port: fakePort }] } }, configId });
    expect(moved.status).toBe(400);
    expect((moved.body.error as { field: string }).field).toBe('target.pool.connections.0.password');
    // The connection test with configId reads the same saved secrets.
    const t = await post(s, '/api/v1/targets/test', { target: { ...masked, pool }, configId });
    expect(t.status).toBe(400);
    await nothingSent();
  });

  it('PUT /configs adding such a connection while keeping "********": refused, the stored configuration unchanged', async () => {
    const r = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${configId}`, payload: { name: 'pooled', target: { ...masked, pool: { connections: [...savedPool.connections, { name: 'evil', port: fakePort }] } } } });
    expect(r.statusCode, r.body).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'target.pool.connections.1.password' } });
    expect(s.store.getConfig(configId, { withSecrets: true })?.target).toMatchObject({ password: PASSWORD, pool: savedPool });
    // Keeping the saved pool as it is stays allowed.
    const same = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${configId}`, payload: { name: 'pooled', target: { ...masked, pool: savedPool } } });
    expect(same.statusCode, same.body).toBe(200);
    await nothingSent();
  });

  it('a pool connection with its own password runs; the saved pool connection inherits as saved', async () => {
    const pool = { connections: [{ name: 'nossl', sslmode: 'disable' }, { name: 'own', sslmode: 'disable', password: 'own-typed-pw' }] };
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: { ...masked, pool }, configId, tprocc: { vus: 1, rampup: 0, duration: 0.05, userDelayMs: 50 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as TproccResult;
    expect(res.targets!.map((t) => [t.name, t.sessions])).toEqual([['nossl', 1], ['own', 1]]);
    expect(JSON.stringify(job)).not.toContain(PASSWORD);
    expect(JSON.stringify(job)).not.toContain('own-typed-pw');
    await nothingSent();
  }, 120_000);
});
