import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, post, type SledgeApp } from './helpers.js';

/**
 * A saved configuration's secrets are filled in for "********" only for the
 * endpoint and user they were saved with. A fake server on another port must
 * never receive a connection (and so never a password) through configId.
 */
describe('saved secrets are bound to their endpoint and user', () => {
  let s: SledgeApp;
  let fake: Server;
  let fakePort = 0;
  const received: Buffer[] = [];
  let connections = 0;
  const PASSWORD = 'Bound-S3cret-pw';
  const SUPER = 'Bound-Sup3r-pw';
  const saved = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'tpcc', password: PASSWORD, superuser: 'postgres', superuserPassword: SUPER, database: 'sledge_bind_db' };
  let configId = 0;

  beforeAll(async () => {
    s = await makeApp();
    fake = createServer((sock: Socket) => {
      connections++;
      sock.on('data', (d) => received.push(d));
      sock.on('error', () => undefined);
      // Never answer: a client would wait; the refusal must come before any connect.
      setTimeout(() => sock.destroy(), 2000).unref();
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    fakePort = (fake.address() as { port: number }).port;
    const r = await post(s, '/api/v1/configs', { name: 'bound', target: saved });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    configId = (r.body as { id: number }).id;
  });
  afterAll(async () => {
    await s.app.close();
    await new Promise<void>((r) => fake.close(() => r()));
  });

  const masked = { ...saved, password: '********', superuserPassword: '********' };
  const elsewhere = [
    { what: 'another port', target: { ...masked, port: 0 } },
    { what: 'another host', target: { ...masked, host: 'localhost', port: 0 } },
  ];

  for (const { what, target } of elsewhere) {
    for (const url of ['/api/v1/targets/test', '/api/v1/targets/ash', '/api/v1/jobs']) {
      it(`${url} with configId and ${what}: refused naming the field, nothing sent`, async () => {
        const t = { ...target, port: target.port === 0 ? fakePort : target.port };
        const jobsBefore = s.store.listJobs({ limit: 1 }).total;
        const body = url === '/api/v1/jobs' ? { type: 'check', target: t, configId } : { target: t, configId };
        const r = await post(s, url, body);
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION' } });
        expect(String((r.body.error as { field: string }).field)).toMatch(/^target\.(password|superuserPassword)$/);
        expect(String((r.body.error as { message: string }).message)).toMatch(/type the secret/);
        expect(s.store.listJobs({ limit: 1 }).total).toBe(jobsBefore);
        await new Promise((res) => setTimeout(res, 100));
        expect(connections).toBe(0);
        const all = Buffer.concat(received).toString('latin1');
        expect(all).not.toContain(PASSWORD);
        expect(all).not.toContain(SUPER);
      });
    }
  }

  it('another user name for the same host: the password is not filled in', async () => {
    const r = await post(s, '/api/v1/targets/test', { target: { ...masked, user: 'someone_else', superuser: 'someone_else' }, configId });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION' } });
  });

  it('a typed password for another host is used as typed (no stored secret involved)', async () => {
    const r = await post(s, '/api/v1/targets/test', { target: { ...saved, port: fakePort, password: 'typed-pw', superuserPassword: 'typed-pw' }, configId });
    // The fake server never answers: the connection attempt itself is the point (it times out or is reset).
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(connections).toBeGreaterThan(0);
    const all = Buffer.concat(received).toString('latin1');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(SUPER);
  });

  it('PUT /configs moving the endpoint while keeping "********" is refused; the stored target is unchanged', async () => {
    const r = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${configId}`, payload: { name: 'bound', target: { ...masked, port: fakePort } } });
    expect(r.statusCode, r.body).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION' } });
    expect(s.store.getConfig(configId, { withSecrets: true })?.target).toMatchObject({ port: 5432, password: PASSWORD, superuserPassword: SUPER });
    // Same endpoint, another database: the secrets are kept.
    const ok = await s.app.inject({ method: 'PUT', url: `/api/v1/configs/${configId}`, payload: { name: 'bound', target: { ...masked, database: 'sledge_bind_other' } } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(s.store.getConfig(configId, { withSecrets: true })?.target).toMatchObject({ database: 'sledge_bind_other', password: PASSWORD, superuserPassword: SUPER });
  });
});
