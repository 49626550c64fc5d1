/**
 * One primary aggregating many replicas: 20 simulated replicas (replica-sim.ts,
 * in a child process, speaking the real wire protocol) on a nats-server of the
 * test's own, a primary (the server app, in process) whose monitor reads a
 * SQLite target. The run's numbers must be exactly what the replicas did;
 * the primary's CPU per replica is printed (no timed assertion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram } from 'node:perf_hooks';
import { buildApp } from '@sledge/server';
import { TX_PROC, type LatencySample, type ReplicaList, type TimingRow, type TproccResult } from '@sledge/protocol';
import { appApi, startNats, waitFor } from './nats-harness.js';
import { startSimProcess, type SimProcess } from './replica-sim.js';

const TOKEN = 'n4ts-T0ken-for-sim';
const N = 20;
const VUS_PER_REPLICA = 2;
const TX_PER_VU = 400;
const target = { engine: 'sqlite', file: 'replicas-sim.sqlite' };

type App = Awaited<ReturnType<typeof buildApp>>;

describe(`one primary aggregating ${N} simulated replicas`, () => {
  let nats: { url: string; stop: () => Promise<void> };
  let s: App;
  let sim: SimProcess;
  let dataDir: string;

  const { post, get, waitJob } = appApi(() => s);

  beforeAll(async () => {
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-sim-'));
    s = await buildApp({ dataDir, uiDir: null, logger: false, nats: { url: nats.url, token: TOKEN, lossMs: 5000 } });
    const b = await post('/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect((await waitJob(String(b.body['id']))).status).toBe('completed');
    sim = await startSimProcess({ url: nats.url, token: TOKEN, replicas: N, txPerVu: TX_PER_VU });
    await waitFor(async () => (await get<ReplicaList>('/api/v1/replicas')).replicas.filter((r) => r.state === 'ready').length === N, `${N} ready replicas`, 30_000);
  }, 300_000);

  afterAll(async () => {
    await sim?.stop();
    await s?.app.close();
    await nats?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('runs on every replica; the result is exactly what the replicas did: transactions, per-replica counts, interval latency, time profile', async () => {
    const r = await post('/api/v1/jobs', { type: 'run', target, placement: { on: 'replicas' }, tprocc: { vus: N * VUS_PER_REPLICA, rampup: 0, duration: 0.25, tcRefreshSec: 5 }, metrics: { ash: false, cpu: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body['id']);
    const job = await waitJob(id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const sent = await sim.job(id);
    const res = job.result as TproccResult & { replicas: { name: string; vus: number[]; transactions: number; finishedVus: number; lostAt?: number }[]; vusFinished: number };

    // Every replica took part, none was lost, every VU finished.
    expect(res.replicas).toHaveLength(N);
    expect(res.replicas.map((x) => x.name)).toEqual(sim.names);
    expect(sent.replicas.map((x) => x.name)).toEqual(sim.names);
    expect(res.vusFinished).toBe(N * VUS_PER_REPLICA);
    for (const x of res.replicas) {
      expect(x.lostAt).toBeUndefined();
      expect(x.vus).toHaveLength(VUS_PER_REPLICA);
    }

    // Transactions: each replica's window count is what it did in the window; they sum to the run's.
    const simByName = new Map(sent.replicas.map((x) => [x.name, x]));
    for (const x of res.replicas) expect(x.transactions, x.name).toBe(simByName.get(x.name)!.windowTransactions);
    const simWindow = sent.replicas.reduce((a, x) => a + x.windowTransactions, 0);
    // At TX_PER_VU each VU works ~13 s of the 15 s window (it stops 2 s before its end): far from zero.
    expect(simWindow).toBeGreaterThan(N * VUS_PER_REPLICA * TX_PER_VU * 5);
    expect(res.replicas.reduce((a, x) => a + x.transactions, 0)).toBe(res.transactions);
    expect(res.transactions).toBe(simWindow);

    // Interval latency: every value of every tick landed in the primary's per-second samples.
    const lat = await get<LatencySample[]>(`/api/v1/jobs/${id}/latency`);
    const latCalls: Record<string, number> = {};
    for (const l of lat) for (const [op, x] of Object.entries(l.perType)) latCalls[op] = (latCalls[op] ?? 0) + x.count;
    const tickCalls: Record<string, number> = {};
    for (const x of sent.replicas) for (const [op, c] of Object.entries(x.tickCalls)) tickCalls[op] = (tickCalls[op] ?? 0) + c;
    expect(Object.keys(tickCalls).sort()).toEqual(['delivery', 'neworder', 'orderstatus', 'payment', 'stocklevel']);
    expect(latCalls).toEqual(tickCalls);

    // Time profile: the primary's summary rows equal the merge of the replicas' window profiles.
    const timings = (await get<TimingRow[]>(`/api/v1/jobs/${id}/timing`)).filter((t) => t.vu === 0);
    expect(timings).toHaveLength(5);
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    for (const [op, label] of Object.entries(TX_PROC)) {
      const h = createHistogram();
      let totalNs = 0;
      for (const x of sent.replicas) {
        const p = x.profile[op];
        if (!p) continue;
        totalNs += p.totalNs;
        for (let i = 0; i < p.pairs.length; i += 2) for (let k = 0; k < p.pairs[i + 1]!; k++) h.record(p.pairs[i]!);
      }
      const row = timings.find((t) => t.proc === label)!;
      expect(row, op).toBeDefined();
      expect(row.calls, op).toBe(h.count);
      expect(row.totalMs, op).toBe(r3(totalNs / 1e6));
      expect(row.p50Ms, op).toBe(r3(h.percentile(50) / 1000));
      expect(row.p99Ms, op).toBe(r3(h.percentile(99) / 1000));
      expect(row.maxMs, op).toBe(r3(h.max / 1000));
    }

    // The primary's CPU over the measured window (process.cpuUsage in this process; the simulator is a child).
    const out = (await get<{ lines: { text: string }[] }>(`/api/v1/jobs/${id}/output?vu=1&limit=5000`)).lines.map((l) => l.text);
    const m = out.map((t) => t.match(/^Primary CPU: ([\d.]+) ms per 1000 transactions \((\d+) transactions in ([\d.]+) s\)/)).find(Boolean);
    expect(m, 'the Primary CPU line').toBeTruthy();
    const cpuMs = (Number(m![1]) * Number(m![2])) / 1000;
    const seconds = Number(m![3]);
    const ticks = sent.replicas.reduce((a, x) => a + x.ticks, 0);
    const bytes = sent.replicas.reduce((a, x) => a + x.tickBytes, 0);
    console.log(
      `primary CPU over the window: ${(cpuMs / seconds).toFixed(1)} ms/s for ${N} replicas = ${(cpuMs / seconds / N).toFixed(2)} ms per second per replica ` +
        `(${N * VUS_PER_REPLICA} VUs at ${TX_PER_VU} tx/s; ticks ${ticks}, ${(bytes / ticks / 1024).toFixed(1)} KiB each)`,
    );
  }, 240_000);
});
