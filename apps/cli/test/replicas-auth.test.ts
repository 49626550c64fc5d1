/**
 * The target's credentials go to replicas only over an authenticated NATS
 * connection: a primary on an open NATS refuses runs on replicas (nothing
 * stored); a replica with a wrong token is refused by NATS and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@sledge/server';
import type { ReplicaList } from '@sledge/protocol';
import { startNats, startReplica, waitFor, type ReplicaProc } from './nats-harness.js';

type App = Awaited<ReturnType<typeof buildApp>>;

describe('replicas and NATS authentication', () => {
  let open: { url: string; stop: () => Promise<void> };
  let guarded: { url: string; stop: () => Promise<void> };
  let s: App;
  let dataDir: string;
  let replica: ReplicaProc;

  beforeAll(async () => {
    open = await startNats(null);
    guarded = await startNats('the-right-token');
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-auth-'));
    s = await buildApp({ dataDir, uiDir: null, logger: false, nats: { url: open.url } });
    replica = startReplica('open1', open.url);
    await waitFor(async () => ((await s.app.inject({ method: 'GET', url: '/api/v1/replicas' })).json() as ReplicaList).replicas.length === 1, 'the replica');
  });

  afterAll(async () => {
    replica?.proc.kill('SIGTERM');
    await replica?.exited;
    await s?.app.close();
    await open?.stop();
    await guarded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a primary whose NATS connection does not authenticate refuses a run on replicas, before storing it', async () => {
    const l = (await s.app.inject({ method: 'GET', url: '/api/v1/replicas' })).json() as ReplicaList;
    expect(l.authenticated).toBe(false);
    const body = { type: 'run', target: { engine: 'sqlite', file: join(dataDir, 'x.sqlite') }, placement: { on: 'replicas' }, tprocc: { vus: 1 } };
    const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: body });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'placement' } });
    expect(r.body).toMatch(/does not authenticate.*SLEDGE_NATS_TOKEN/);
    expect(((await s.app.inject({ method: 'GET', url: '/api/v1/jobs' })).json() as { total: number }).total).toBe(0);
  });

  it('a replica with a wrong token is refused by NATS: a typed error, exit code 2 (for the user to fix)', async () => {
    const bad = startReplica('bad', guarded.url, { token: 'a-wrong-token' });
    expect(await bad.exited).toBe(2);
    expect(bad.log()).toMatch(/SLEDGE_E_AUTH: NATS at nats:\/\/127\.0\.0\.1:\d+: refused the credentials/);
    expect(bad.log()).not.toContain('a-wrong-token');
  });

  it('sledge replica without a NATS URL says what to give', async () => {
    const none = startReplica('none', '', {});
    expect(await none.exited).toBe(2);
    expect(none.log()).toMatch(/needs the NATS server: --nats nats:\/\/host:4222 \(or SLEDGE_NATS_URL\)/);
  });
});
