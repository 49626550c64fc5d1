import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { JobStore } from '@sledge/jobstore';
import { TX_TYPES, type Job, type ServerFrame, type TxType } from '@sledge/protocol';
import { JobContext } from '../../dist/engine/job-context.js';
import { buildSnapshot } from '../../dist/engine/snapshot.js';
import { JobStream, RING_BYTES } from '../../dist/engine/stream.js';
import { makeApp } from '../helpers.js';
import { tempDir } from './harness.js';

/**
 * Resource bound: a 2-hour run at 2 VUs keeps the server's memory flat.
 * Nothing in the run path takes an injectable clock, so time is accelerated
 * one level up: everything a real run writes each second (client rates,
 * latency percentiles, the VU grid, client-side ASH, CPU agent samples, an
 * engine sample every 10 s, a mark line each minute) goes through the same
 * JobContext into the same job store and live stream, 7200 simulated seconds
 * as fast as they go, with the store's and the stream's flushes at their real
 * once-a-second and batch cadence. A viewer stays subscribed throughout.
 * Heap and RSS are sampled every simulated 10 minutes ([fault long-run]).
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 2 ** 20;
const memory = () => {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / MB, rss: m.rss / MB };
};

/** Simulated hours (SLEDGE_FAULT_HOURS=8 for a longer look: RSS stays at its 80-minute level). */
const HOURS = Number(process.env['SLEDGE_FAULT_HOURS'] ?? 2);
const VUS = [2, 3];

describe('resource bound: a 2-hour run at 2 VUs (simulated time)', () => {
  const dir = tempDir('long');
  const store = JobStore.open(join(dir, 'sledge.db'));
  afterAll(() => store.close());

  it('keeps heap and RSS flat once the resume ring is full; the store holds every sample', () => {
    const job = store.createJob({ type: 'run', workload: 'tprocc', engine: 'sqlite', config: { target: { engine: 'sqlite', file: 'x.sqlite' } }, seed: 1, profileId: 0, clientVersion: 'fault suite' }) as Job;
    const stream = new JobStream(job.id, () => buildSnapshot(store, job.id));
    const ctx = new JobContext(job, store, stream, () => undefined, []);
    let frames = 0;
    stream.subscribe({ send: (_f: ServerFrame) => (frames++, true), backlog: () => 0 });

    const t0 = 1_700_000_000_000;
    const seconds = HOURS * 3600;
    const samples: { min: number; heap: number; rss: number; ringMb: number }[] = [];
    const start = memory();
    ctx.status('measuring');
    for (let s = 1; s <= seconds; s++) {
      const ts = t0 + s * 1000;
      const rate = (t: TxType) => 100 + ((s * 7 + t.length) % 13);
      ctx.clientSample({ ts, rates: Object.fromEntries(TX_TYPES.map((t) => [t, rate(t)])) as Record<TxType, number>, commits: 520, rollbacks: 3, errors: 0, phase: 'measuring' });
      ctx.latency({ ts, perType: Object.fromEntries(TX_TYPES.map((t) => [t, { count: rate(t), p50: 1.2, p95: 3.4 + (s % 5) / 10, p99: 6.1, max: 12 + (s % 7) }])) });
      ctx.vus(VUS.map((vu) => ({ vu, state: 'running' as const, commits: s * 260, rollbacks: s, errors: 0 })));
      ctx.metric(
        'ash',
        VUS.map((vu) => ({ ts, data: { ts, session: `vu-${vu}`, vu, program: `sledge-vu-${vu}`, waitClass: 'CPU', event: 'CPU', weight: 0.8 } })),
      );
      const line = (cpu: string) => ({ cpu, usr: 40 + (s % 9), sys: 10, iowait: 1, irq: 0, soft: 1, steal: 0, idle: 48 - (s % 9) });
      ctx.metric('cpu', [{ ts, source: 'local', data: { ts, cpus: [line('all'), line('0'), line('1')], iops: 12, mbps: 0.5 } }]);
      if (s % 10 === 0) ctx.engineSample({ ts, tpm: 31_000 + (s % 100), nopm: 13_500 + (s % 50) });
      if (s % 60 === 0) ctx.output(1, `${s / 60}  ...,`);
      // The real cadence: the stream flushes its batch, the store writes once a second.
      stream.flush();
      store.flush();
      if (s % 600 === 0) samples.push({ min: s / 60, ...memory(), ringMb: stream.ringSize.bytes / MB });
    }
    ctx.status('completed');
    stream.release();
    const released = memory();

    const line = (x: (typeof samples)[number]) => `${x.min} min: heap ${x.heap.toFixed(1)} MB, RSS ${x.rss.toFixed(0)} MB, ring ${x.ringMb.toFixed(1)} MB`;
    console.log(
      `[fault long-run] ${HOURS} h at 2 VUs, ${frames} frames to one viewer; start heap ${start.heap.toFixed(1)} MB RSS ${start.rss.toFixed(0)} MB\n  ` +
        samples.map(line).join('\n  ') +
        `\n  after the job ended (ring released): heap ${released.heap.toFixed(1)} MB, RSS ${released.rss.toFixed(0)} MB`,
    );

    // Everything was stored: one client sample per second, an engine sample every 10 s.
    const tc = store.getTcount(job.id);
    expect(tc.client).toHaveLength(seconds);
    expect(tc.engine).toHaveLength(seconds / 10);
    expect(store.getOutput(job.id, { limit: 1 }).total).toBe(seconds / 60);
    // Bounded: the resume ring stays under its byte cap; the heap grows by little more than it over 2 hours.
    expect(Math.max(...samples.map((x) => x.ringMb))).toBeLessThanOrEqual(RING_BYTES / MB);
    const peakHeap = Math.max(...samples.map((x) => x.heap));
    expect(peakHeap - start.heap).toBeLessThan(3 * (RING_BYTES / MB) + 16);
    // Flat: the second hour adds (almost) nothing.
    const hour1 = samples.find((x) => x.min === 60)!;
    const last = samples[samples.length - 1]!;
    expect(last.heap - hour1.heap).toBeLessThan(8);
    expect(last.rss - hour1.rss).toBeLessThan(64);
    // The ended job lets go of its ring.
    expect(released.heap - start.heap).toBeLessThan(8);
  });

  it('a server running job after job keeps no frames of ended jobs', async () => {
    const s = await makeApp();
    try {
      const r = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: { type: 'delete', target: { engine: 'sqlite', file: 'none.sqlite' } } });
      expect(r.statusCode, r.body).toBe(201);
      const id = (JSON.parse(r.body) as Job).id;
      await s.engine.idle();
      expect((s.store.getJob(id) as Job).status).toBe('completed');
      expect(s.store.getOutput(id).lines.length).toBeGreaterThan(0);
      expect(s.engine.stream(id).seq).toBeGreaterThan(0);
      expect(s.engine.stream(id).ringSize).toEqual({ frames: 0, bytes: 0 });
    } finally {
      await s.app.close();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  });
});
