/**
 * A primary that dies mid-run leaves no load behind: its replicas stop their
 * VUs within seconds (the primary restarted: another boot id; or it is
 * silent), and the restarted primary finds the job interrupted. The primary
 * is a real server process here (SIGKILL), with PostgreSQL as the target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, ReplicaList } from '@sledge/protocol';
import { freePort, startNats, startReplica, waitFor, type ReplicaProc } from './nats-harness.js';

const TOKEN = 'restart-T0ken';
const DB = 'sledge_replicas_restart';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: DB, database: DB, superuser: 'postgres' };
const serverMain = new URL('../../../server/dist/main.js', import.meta.url).pathname;

/** Client sessions open on the test database (the replicas' VUs). */
const sessions = (): number =>
  Number(execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', `select count(*) from pg_stat_activity where datname = '${DB}' and backend_type = 'client backend'`], { encoding: 'utf8' }).trim());

describe('a primary restart stops the replicas\' VUs', () => {
  let nats: { url: string; stop: () => Promise<void> };
  let dataDir: string;
  let port: number;
  let primary: ChildProcess | null = null;
  let replicas: ReplicaProc[] = [];

  const base = () => `http://127.0.0.1:${port}/api/v1`;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const r = await fetch(base() + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: r.status, body: (await r.json()) as T };
  };
  const startPrimary = async () => {
    primary = spawn(process.execPath, [serverMain], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), SLEDGE_DATA_DIR: dataDir, SLEDGE_NATS_URL: nats.url, SLEDGE_NATS_TOKEN: TOKEN, LOG_FORMAT: 'json' },
      stdio: 'ignore',
    });
    await waitFor(async () => (await fetch(base() + '/health').catch(() => null))?.ok === true, 'the primary', 30_000);
  };
  const waitJob = async (id: string, statuses: string[], timeoutMs = 120_000): Promise<Job> => {
    let j: Job | undefined;
    await waitFor(async () => statuses.includes((j = (await api<Job>('GET', `/jobs/${id}`)).body).status), `job ${id} ${statuses.join('|')}`, timeoutMs);
    return j!;
  };

  beforeAll(async () => {
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-restart-'));
    port = await freePort();
    await startPrimary();
    replicas = [startReplica('r1', nats.url, { token: TOKEN }), startReplica('r2', nats.url, { token: TOKEN })];
    await waitFor(async () => (await api<ReplicaList>('GET', '/replicas')).body.replicas.filter((r) => r.state === 'ready').length === 2, 'two ready replicas');
    const del = await api<{ id: string }>('POST', '/jobs', { type: 'delete', target });
    if (del.status === 201) await waitJob(del.body.id, ['completed', 'failed']);
    const b = await api<{ id: string }>('POST', '/jobs', { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect((await waitJob(b.body.id, ['completed', 'failed'])).status).toBe('completed');
  }, 300_000);

  afterAll(async () => {
    const del = await api<{ id: string }>('POST', '/jobs', { type: 'delete', target }).catch(() => null);
    if (del?.status === 201) await waitJob(del.body.id, ['completed', 'failed']).catch(() => undefined);
    primary?.kill('SIGTERM');
    for (const r of replicas) r.proc.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('SIGKILL of the primary mid-run: the replicas stop their VUs within seconds; the restarted primary marks the job interrupted', async () => {
    const r = await api<{ id: string }>('POST', '/jobs', { type: 'run', target, placement: { on: 'replicas' }, tprocc: { vus: 4, rampup: 0, duration: 5 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.id;
    await waitJob(id, ['measuring'], 60_000);
    await waitFor(() => sessions() >= 4, 'the VUs\' sessions');
    primary!.kill('SIGKILL');
    const killedAt = Date.now();
    // Silent primary: the replicas give up on it after 5 s (their --primary-loss-ms default) and end their VUs.
    await Promise.all(replicas.map((x) => x.waitLog(new RegExp(`stopping the VUs of job ${id}: its primary (has been silent|restarted)`), 15_000)));
    await Promise.all(replicas.map((x) => x.waitLog(new RegExp(`job ${id}: VUs ended`), 10_000)));
    await waitFor(() => sessions() === 0, 'no session left on the database', 10_000);
    const stoppedIn = Date.now() - killedAt;
    expect(stoppedIn).toBeLessThan(15_000);
    await startPrimary();
    const job = (await api<Job>('GET', `/jobs/${id}`)).body;
    expect(job.status).toBe('interrupted');
    await waitFor(async () => (await api<ReplicaList>('GET', '/replicas')).body.replicas.filter((x) => x.state === 'ready').length === 2, 'the replicas ready for the new primary');
  }, 180_000);

  it('a primary that restarts at once (another boot id) stops the replicas\' VUs without waiting for the silence', async () => {
    const r = await api<{ id: string }>('POST', '/jobs', { type: 'run', target, placement: { on: 'replicas' }, tprocc: { vus: 2, rampup: 0, duration: 5 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.id;
    await waitJob(id, ['measuring'], 60_000);
    await waitFor(() => sessions() >= 2, 'the VUs\' sessions');
    primary!.kill('SIGKILL');
    await startPrimary();
    await Promise.all(replicas.map((x) => x.waitLog(new RegExp(`stopping the VUs of job ${id}: its primary restarted`), 10_000)));
    await waitFor(() => sessions() === 0, 'no session left on the database', 10_000);
    expect((await api<Job>('GET', `/jobs/${id}`)).body.status).toBe('interrupted');
  }, 180_000);
});
