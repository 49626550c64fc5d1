/**
 * Scale-out on real parts: a nats-server of the test's own (JetStream, token
 * auth), two `sledge replica` processes, a primary (the server app, in
 * process) and PostgreSQL. One run's 4 VUs spread over the replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@sledge/server';
import { TX_PROC, type Job, type ReplicaList, type TimingRow, type TproccResult, type TxType } from '@sledge/protocol';
import { appApi, replicaFrames, startNats, startReplica, waitFor, type ReplicaProc } from './nats-harness.js';
import { PACED } from './paced.js';
import { quiet, quietTimeout } from '../../../scripts/test-quiet.mjs';
import { copyPgTprocc } from '../../../server/test/live-template.js';

const TOKEN = 'n4ts-T0ken-for-tests';
const DB = 'sledge_replicas_pg';
const SECRET = 'Repl1caTargetPw';
// Trust authentication accepts any password: the run still sends one, and no frame or log may hold it.
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: SECRET, database: DB, superuser: 'postgres' };

type App = Awaited<ReturnType<typeof buildApp>>;

describe('replicas over NATS JetStream (PostgreSQL)', () => {
  let nats: { url: string; stop: () => Promise<void> };
  let s: App;
  let dataDir: string;
  let replicas: ReplicaProc[] = [];
  const serverLog: string[] = [];

  const { post, get, waitJob } = appApi(() => s);
  const runBody = (tprocc: Record<string, unknown>, placement: Record<string, unknown> = { on: 'replicas' }) => ({ type: 'run', target, placement, tprocc: { vus: 4, rampup: 0.1, duration: 0.3, tcRefreshSec: 2, ...tprocc } });
  const ready = async (n: number) => waitFor(async () => (await get<ReplicaList>('/api/v1/replicas')).replicas.filter((r) => r.state === 'ready').length >= n, `${n} ready replicas`);

  beforeAll(async () => {
    // The schema: a copy of the prebuilt 1-warehouse template (server/test/live-template.ts), as a build job on the
    // primary would leave it (the build is not this file's subject). The 4 VUs share its one warehouse, as HammerDB's do.
    // It is copied first: the copy runs psql synchronously, and the primary below runs in this process, so a copy made
    // after it would stall its event loop (heartbeats unread for seconds under load) before the first test reads their age.
    await copyPgTprocc({ database: DB, user: DB, password: SECRET });
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-'));
    s = await buildApp({
      dataDir,
      uiDir: null,
      logger: { level: 'info', stream: { write: (l: string) => void serverLog.push(l) } },
      nats: { url: nats.url, token: TOKEN, lossMs: 3000 },
    });
    replicas = [startReplica('r1', nats.url, { token: TOKEN }), startReplica('r2', nats.url, { token: TOKEN })];
    await ready(2);
  }, 300_000);

  afterAll(async () => {
    const del = await post('/api/v1/jobs', { type: 'delete', target }).catch(() => null);
    if (del?.status === 201) await waitJob(String(del.body['id']));
    for (const r of replicas) r.proc.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    await s?.app.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('lists the replicas that joined, with health, CPU, cores, drivers and version', async () => {
    const l = await get<ReplicaList>('/api/v1/replicas');
    expect(l.enabled).toBe(true);
    expect(l.authenticated).toBe(true);
    expect(l.nats).toBe(nats.url);
    expect(l.replicas.map((r) => r.name)).toEqual(['r1', 'r2']);
    for (const r of l.replicas) {
      expect(r.state).toBe('ready');
      expect(r.versionMatch).toBe(true);
      expect(r.cores).toBeGreaterThan(0);
      expect(r.drivers).toEqual(expect.arrayContaining(['sqlite', 'postgresql', 'mariadb']));
      // The heartbeat's age as the API defines it (ReplicaList.now: the server's clock when it answered), within the
      // loss time set above (lossMs 3000): the test's own clock after the reply also counted the reply's way back.
      expect(l.now - r.lastSeenAt).toBeLessThan(3000);
    }
    await waitFor(async () => (await get<ReplicaList>('/api/v1/replicas')).replicas.every((r) => r.cpuPct !== null && r.processCpuPct !== null), 'CPU figures');
  });

  // This run, the stop's and the SIGKILL's are paced (./paced.ts): their subject is placement, identities and timelines, not the load level.
  it('runs 4 VUs spread over two replicas: NOPM/TPM from the primary, per-replica client TPM summing to the total, latency merged exactly', async () => {
    const r = await post('/api/v1/jobs', runBody({ timeProfile: true, ...PACED }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(String(r.body['id']));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as TproccResult & { replicas: { name: string; vus: number[]; transactions: number; clientTpm: number; finishedVus: number; lostAt?: number }[]; vusFinished: number };
    expect(res.nopm).toBeGreaterThan(0);
    expect(res.tpmSource).toBe('engine');
    expect(res.line).toMatch(/TEST RESULT : System achieved \d+ NOPM from \d+ PostgreSQL TPM/);
    expect(res.replicas.map((x) => [x.name, x.vus])).toEqual([
      ['r1', [2, 3]],
      ['r2', [4, 5]],
    ]);
    expect(res.vusFinished).toBe(4);
    for (const x of res.replicas) {
      expect(x.transactions).toBeGreaterThan(0);
      expect(x.lostAt).toBeUndefined();
    }
    expect(res.replicas.reduce((a, x) => a + x.transactions, 0)).toBe(res.transactions);
    const tpmSum = res.replicas.reduce((a, x) => a + x.clientTpm, 0);
    // Each replica's TPM is its window count over the window's exact seconds; measuredSeconds is rounded to 0.1 s (at most 0.05 of >= 18 s: 0.3%).
    const total = (res.transactions! / res.measuredSeconds) * 60;
    expect(Math.abs(tpmSum - total) / total).toBeLessThan(0.003);
    const out = (await get<{ lines: { text: string }[] }>(`/api/v1/jobs/${job.id}/output?limit=1000`)).lines.map((l) => l.text).join('\n');
    expect(out).toContain('4 VU(s) on 2 replica(s): r1 2, r2 2');
    // Each replica's machine CPU is recorded with the job, as a CPU agent's is.
    const cpu = await get<{ sources: Record<string, { cpus: { cpu: string; idle: number }[] }[]> }>(`/api/v1/jobs/${job.id}/cpu`);
    for (const name of ['replica r1', 'replica r2']) {
      expect(cpu.sources[name]?.length, name).toBeGreaterThan(5);
      expect(cpu.sources[name]![0]!.cpus[0]!.cpu).toBe('all');
    }

    // The job's time profile equals the one computed from the replicas' own frames, merged here.
    const { raw, profiles, merged } = await replicaFrames(nats.url, TOKEN, job.id);
    expect(profiles).toBe(2);
    // No frame holds the target's password (it went to the replicas in a control request only).
    expect(raw.join('\n')).not.toContain(SECRET);
    const timings = (await get<TimingRow[]>(`/api/v1/jobs/${job.id}/timing`)).filter((t) => t.vu === 0);
    expect(timings.length).toBeGreaterThan(0);
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    for (const [op, h] of merged) {
      const row = timings.find((t) => t.proc === TX_PROC[op as TxType]);
      expect(row, op).toBeDefined();
      expect(row!.calls).toBe(h.count);
      expect(row!.p50Ms).toBe(r3(h.percentile(50) / 1000));
      expect(row!.p95Ms).toBe(r3(h.percentile(95) / 1000));
      expect(row!.p99Ms).toBe(r3(h.percentile(99) / 1000));
      expect(row!.maxMs).toBe(r3(h.max / 1000));
    }
  }, 180_000);

  it('refuses a placement it cannot honour before storing anything, saying what to change', async () => {
    const before = (await get<{ total: number }>('/api/v1/jobs')).total;
    const unknown = await post('/api/v1/jobs', runBody({}, { on: 'replicas', replicas: ['nope'] }));
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/replica nope has not joined: the replicas are r1, r2/);
    const sum = await post('/api/v1/jobs', runBody({}, { on: 'replicas', vus: { r1: 1, r2: 1 } }));
    expect(sum.status).toBe(400);
    expect(JSON.stringify(sum.body)).toMatch(/adds up to 2 VUs but the run has 4/);
    const build = await post('/api/v1/jobs', { type: 'build', target, placement: { on: 'replicas' }, tprocc: { warehouses: 1 } });
    expect(build.status).toBe(400);
    expect(JSON.stringify(build.body)).toMatch(/placement applies only to run jobs/);
    expect((await get<{ total: number }>('/api/v1/jobs')).total).toBe(before);
  });

  it('stop stops every replica\'s VUs within 2 s', async () => {
    const r = await post('/api/v1/jobs', runBody({ rampup: 0, duration: 5, ...PACED }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body['id']);
    await waitFor(async () => (await get<Job>(`/api/v1/jobs/${id}`)).status === 'measuring', 'measuring', 60_000);
    await new Promise((res) => setTimeout(res, 1500));
    const t0 = Date.now();
    await post(`/api/v1/jobs/${id}/stop`, {});
    await Promise.all(replicas.map((x) => x.waitLog(new RegExp(`job ${id}: VUs ended`), 5000)));
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeLessThan(2000);
    expect((await waitJob(id)).status).toBe('stopped');
  }, 120_000);

  // Quiet: r1's and r2's transaction counts are compared, which CPU taken by other suites skews.
  it('step loads go over replicas like HammerDB steprun: the first step runs replica r1\'s VUs, the second adds r2\'s', () => quiet(async () => {
    const steps = [
      { startAfterMin: 0, durationMin: 0.15, vus: 2 },
      { startAfterMin: 0.15, durationMin: 0.15, vus: 4 },
    ];
    const r = await post('/api/v1/jobs', runBody({ rampup: 0, duration: 0.3, userDelayMs: 0, steps }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(String(r.body['id']));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as unknown as { steps: { vus: number; nopm: number; transactions: number }[]; replicas: { name: string; transactions: number }[]; vusFinished: number };
    expect(res.steps.map((x) => x.vus)).toEqual([2, 4]);
    for (const st of res.steps) expect(st.transactions).toBeGreaterThan(0);
    const [r1, r2] = res.replicas;
    // r2's VUs ran only in the second step: about half of r1's count (its VUs ran both).
    expect(r2!.transactions).toBeGreaterThan(0);
    expect(r2!.transactions).toBeLessThan(r1!.transactions * 0.8);
    expect(res.vusFinished).toBe(4);
  }), quietTimeout(180_000));

  it('a replica killed mid-run (SIGKILL) is marked lost with the time; the job completes and counts what it did', async () => {
    await ready(2);
    const r = await post('/api/v1/jobs', runBody({ duration: 0.4, ...PACED }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body['id']);
    await waitFor(async () => (await get<Job>(`/api/v1/jobs/${id}`)).status === 'measuring', 'measuring', 60_000);
    await new Promise((res) => setTimeout(res, 3000));
    const killedAt = Date.now();
    replicas[1]!.proc.kill('SIGKILL');
    const job = await waitJob(id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as TproccResult & { replicas: { name: string; transactions: number; finishedVus: number; lostAt?: number }[]; vusFinished: number };
    const lost = res.replicas.find((x) => x.name === 'r2')!;
    expect(lost.lostAt).toBeGreaterThanOrEqual(killedAt);
    expect(lost.lostAt! - killedAt).toBeLessThan(10_000);
    expect(lost.transactions).toBeGreaterThan(0);
    expect(lost.finishedVus).toBe(0);
    expect(res.vusFinished).toBe(2);
    expect(res.replicas.find((x) => x.name === 'r1')!.lostAt).toBeUndefined();
    const out = (await get<{ lines: { text: string }[] }>(`/api/v1/jobs/${id}/output?limit=2000`)).lines.map((l) => l.text).join('\n');
    expect(out).toMatch(/Replica r2 lost at \S+ \(no heartbeat for 3 s\)/);
    const vus = await get<{ vu: number; state: string }[]>(`/api/v1/jobs/${id}/vus`);
    expect(vus.filter((v) => v.vu >= 4).map((v) => v.state)).toEqual(['failed', 'failed']);
    expect(vus.filter((v) => v.vu < 4).map((v) => v.state)).toEqual(['finished', 'finished']);
    expect((await get<ReplicaList>('/api/v1/replicas')).replicas.find((x) => x.name === 'r2')!.state).toBe('lost');
    // The replica comes back (a new process: a new boot id) and is ready again.
    replicas[1] = startReplica('r2', nats.url, { token: TOKEN });
    await ready(2);
  }, 180_000);

  it('no log line of the primary or the replicas holds the target password or the NATS token', () => {
    const all = serverLog.join('\n') + replicas.map((r) => r.log()).join('\n');
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(TOKEN);
  });
});
