import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Job, JobList, ServerFrame, TimingRow } from '@sledge/protocol';
import { get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';

/**
 * The whole TPROC-C lifecycle on the embedded engine through REST and the
 * WebSocket: build, check, a timed run with a result, stop, export, delete.
 */
describe('SQLite end to end', () => {
  let s: SledgeApp;
  let base: string;
  const target = { engine: 'sqlite', file: 'e2e.sqlite' };

  beforeAll(async () => {
    s = await makeApp();
    base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('builds 1 warehouse and passes checkschema', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1 }, seed: 42 });
    expect(r.status).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const progress = await get<{ phase: string; expected: Record<string, number>; workers: { rows: Record<string, number> }[] }>(s, `/api/v1/jobs/${job.id}/progress`);
    expect(progress.phase).toBe('done');
    const rows = progress.workers.reduce((a, w) => a + Object.values(w.rows).reduce((x, y) => x + y, 0), 0);
    expect(rows).toBeGreaterThan(590000);
    // Totals are exact: every table ends at exactly 100% (order_line's 5-15 lines per order included).
    const loaded: Record<string, number> = {};
    for (const w of progress.workers) for (const [t, n] of Object.entries(w.rows)) loaded[t] = (loaded[t] ?? 0) + n;
    expect(loaded).toEqual(progress.expected);
    expect(progress.expected['order_line']).not.toBe(300000);
    const c = await post(s, '/api/v1/jobs', { type: 'check', target });
    const check = await waitJob(s, String(c.body.id));
    expect(check.status).toBe('completed');
    const items = await get<{ ok: boolean }[]>(s, `/api/v1/jobs/${check.id}/check`);
    expect(items.length).toBe(10);
    expect(items.every((i) => i.ok)).toBe(true);
  });

  it('refuses a second build on the same file', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1 } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' } });
  });

  it('a target test reports the schema as the workload reads it: 1 warehouse here, none in a new file', async () => {
    const built = await post(s, '/api/v1/targets/test', { target });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body).toMatchObject({ version: expect.stringMatching(/^3\./), schema: { exists: true, warehouses: 1 } });
    const empty = await post(s, '/api/v1/targets/test', { target: { engine: 'sqlite', file: 'e2e-target-test-empty.sqlite' } });
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body).toMatchObject({ schema: { exists: false, warehouses: 0 } });
  });

  it('runs timed with 2 VUs, streams frames in order, and stores the result', async () => {
    // Two CPU agents (the database host and the load host) report while the job runs.
    const agents = ['db-host', 'load-host'].map((label) => {
      const ws = new WebSocket(base.replace('http', 'ws') + '/api/v1/agent');
      const system = { hostname: label, cpuModel: 'test cpu', cpuCount: 2, memoryBytes: 1e9, os: 'Debian', kernel: '6.1' };
      const line = (cpu: string) => ({ cpu, usr: 40, sys: 10, iowait: 1, irq: 0, soft: 1, steal: 0, idle: 48 });
      let timer: NodeJS.Timeout | undefined;
      ws.on('open', () => {
        ws.send(JSON.stringify({ t: 'hello', label, system }));
        timer = setInterval(() => ws.send(JSON.stringify({ t: 'cpu', sample: { ts: Date.now(), cpus: [line('all'), line('0'), line('1')], iops: 12, mbps: 0.5 } })), 500);
      });
      return { close: () => (clearInterval(timer), ws.close()) };
    });
    await new Promise((res) => setTimeout(res, 500));
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.25, tcRefreshSec: 2, timeProfile: true } });
    expect(r.status).toBe(201);
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring']);
    let prom = '';
    for (let i = 0; i < 40 && !prom.includes('sledge_latency_seconds'); i++) {
      await new Promise((res) => setTimeout(res, 250));
      prom = (await s.app.inject({ method: 'GET', url: '/metrics' })).body;
    }
    expect(prom).toContain(`sledge_job_running{job_id="${id}",engine="sqlite",type="run",status="measuring"} 1`);
    expect(prom).toMatch(/sledge_client_tx_per_second\{[^}]*tx_type="neworder"\} \d/);
    expect(prom).toMatch(/sledge_latency_seconds\{[^}]*quantile="0.99"\} [\d.e-]+/);
    // Subscribe mid-run: snapshot first, then frames with seq +1 each.
    const frames: ServerFrame[] = [];
    const ws = new WebSocket(base.replace('http', 'ws') + '/api/v1/ws');
    await new Promise((res) => ws.on('open', res));
    ws.on('message', (m) => frames.push(JSON.parse(String(m)) as ServerFrame));
    ws.send(JSON.stringify({ t: 'subscribe', jobId: id }));
    await new Promise((res) => setTimeout(res, 4000));
    ws.close();
    expect(frames[0]?.t).toBe('snapshot');
    const snapSeq = frames[0]!.t === 'snapshot' ? frames[0]!.snapshot.seq : -1;
    const seqs = frames.slice(1).map((f) => ('seq' in f ? f.seq : -1));
    expect(seqs[0]).toBe(snapSeq + 1);
    seqs.forEach((q, i) => i && expect(q).toBe(seqs[i - 1]! + 1));
    expect(frames.some((f) => f.t === 'tcount')).toBe(true);

    // Reconnect with `since`: the missing frames are replayed, no gap, no duplicate.
    const lastSeq = seqs[seqs.length - 1]!;
    await new Promise((res) => setTimeout(res, 1500));
    const again: ServerFrame[] = [];
    const ws2 = new WebSocket(base.replace('http', 'ws') + '/api/v1/ws');
    await new Promise((res) => ws2.on('open', res));
    ws2.on('message', (m) => again.push(JSON.parse(String(m)) as ServerFrame));
    ws2.send(JSON.stringify({ t: 'subscribe', jobId: id, since: lastSeq }));
    await new Promise((res) => setTimeout(res, 1000));
    ws2.close();
    expect(again[0]?.t).not.toBe('snapshot');
    expect(again[0] && 'seq' in again[0] ? again[0].seq : -1).toBe(lastSeq + 1);

    const job = await waitJob(s, id);
    for (const a of agents) a.close();
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const cpu = await get<{ sources: Record<string, unknown[]>; system: Record<string, unknown> }>(s, `/api/v1/jobs/${id}/cpu`);
    expect(Object.keys(cpu.sources).sort()).toEqual(['db-host', 'load-host']);
    expect(cpu.sources['db-host']!.length).toBeGreaterThan(10);
    // Client-side ASH: the VUs report executing vs waiting for SQLite's write lock.
    const ash = await get<{
      series: { aas: Record<string, number> }[];
      topSessions: { vu?: number }[];
      topEvents: { event: string; waitClass: string }[];
      status: { ok: boolean }[];
      phases: { label: string }[];
    }>(s, `/api/v1/jobs/${id}/ash`);
    expect(ash.status.some((x) => x.ok)).toBe(true);
    expect(ash.series.length).toBeGreaterThan(5);
    expect(ash.series.some((b) => (b.aas['CPU'] ?? 0) > 0)).toBe(true);
    // Two writers on one SQLite file contend for the write lock: the busy waits show as the Lock class.
    expect(ash.series.some((b) => (b.aas['Lock'] ?? 0) > 0)).toBe(true);
    expect(ash.topEvents).toContainEqual(expect.objectContaining({ event: 'write lock (SQLITE_BUSY)', waitClass: 'Lock' }));
    expect(ash.topSessions.map((x) => x.vu).sort()).toEqual([2, 3]);
    expect(ash.phases.map((p) => p.label)).toContain('measuring');
    expect(job.result!.nopm).toBeGreaterThan(0);
    expect(job.result!.tpm).toBeGreaterThan(0);
    expect(job.result!.line).toMatch(/^TEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM$/);
    expect(job.result!.tpmSource).toBe('client');
    // A run uses the schema's warehouses, not tprocc.warehouses: the result and the `run` metric say how many.
    expect(job.result!.warehouses).toBe(1);
    const snap = await get<{ metrics: Record<string, { data: unknown }[]> }>(s, `/api/v1/jobs/${id}/snapshot`);
    expect(snap.metrics['run']?.map((m) => m.data)).toEqual([{ warehouses: 1, vus: 2, workers: 2 }]);
    expect(job.engineVersion).toMatch(/^3\./);
    const timing = await get<TimingRow[]>(s, `/api/v1/jobs/${id}/timing`);
    const summary = timing.filter((t) => t.vu === 0);
    expect(summary.map((t) => t.proc).sort()).toEqual(['DELIVERY', 'NEWORD', 'OSTAT', 'PAYMENT', 'SLEV']);
    for (const t of summary) {
      expect(t.calls).toBeGreaterThan(0);
      expect(t.p25Ms).toBeLessThanOrEqual(t.p50Ms);
      expect(t.p50Ms).toBeLessThanOrEqual(t.p99Ms);
      expect(t.maxMs).toBeGreaterThanOrEqual(t.p99Ms * 0.99);
    }
    expect(timing.filter((t) => t.vu > 0).length).toBeGreaterThan(5); // per-VU rows with timeProfile
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=10000`);
    const texts = out.lines.map((l) => l.text);
    expect(texts).toContain(job.result!.line);
    expect(texts).toContain('Rampup complete, Taking start Transaction Count.');
    expect(texts).toContain('ALL VIRTUAL USERS COMPLETE');
    const tc = await get<{ engine: unknown[]; client: { rates: Record<string, number>; commits: number; rollbacks: number; phase?: string }[] }>(s, `/api/v1/jobs/${id}/tcount`);
    expect(tc.client.length).toBeGreaterThan(10);
    // Latency samples count every call of their second: they track the client rate.
    const lat = await get<{ perType: Record<string, { count: number }> }[]>(s, `/api/v1/jobs/${id}/latency`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const latCounts = lat.map((l) => Object.values(l.perType).reduce((a, v) => a + v.count, 0));
    const rates = tc.client.filter((c) => c.phase === 'measuring').map((c) => c.commits + c.rollbacks);
    expect(median(latCounts)).toBeGreaterThan(median(rates) * 0.6);
    expect(tc.engine.length).toBeGreaterThan(3);
    const exp = await get<{ schema: string; job: Job; timings: unknown[]; output: unknown[] }>(s, `/api/v1/jobs/${id}/export?format=json`);
    expect(exp.schema).toBe('sledge-job-v1');
    expect(exp.timings.length).toBe(timing.length);
    const csv = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/export?format=csv&series=timing` });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\n')[0]).toBe('proc,vu,calls,min_ms,avg_ms,max_ms,total_ms,p25_ms,p50_ms,p75_ms,p95_ms,p99_ms,sd_ms,ratio_pct,elapsed_ms');
  });

  it('runs the test driver: each VU runs total_iterations transactions and prints each one', async () => {
    // A socket subscribed to the job (without the job-list feed) gets that job's record changes; a bare socket gets none.
    const open = async () => {
      const ws = new WebSocket(base.replace('http', 'ws') + '/api/v1/ws');
      const frames: ServerFrame[] = [];
      ws.on('message', (m) => frames.push(JSON.parse(String(m)) as ServerFrame));
      await new Promise((res) => ws.on('open', res));
      return { ws, frames };
    };
    const watcher = await open();
    const bystander = await open();
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { driver: 'test', vus: 2, totalIterations: 15, userDelayMs: 0 } });
    watcher.ws.send(JSON.stringify({ t: 'subscribe', jobId: r.body.id }));
    const job = await waitJob(s, String(r.body.id));
    await new Promise((res) => setTimeout(res, 300));
    watcher.ws.close();
    bystander.ws.close();
    const records = watcher.frames.flatMap((f) => (f.t === 'job' ? [f.job] : []));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((j) => j.id === job.id)).toBe(true);
    expect(records.at(-1)).toMatchObject({ status: 'completed', engineVersion: job.engineVersion });
    expect(bystander.frames.filter((f) => f.t === 'job')).toEqual([]);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(job.result).toBeUndefined();
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=1000`);
    const tx = out.lines.filter((l) => l.vu >= 2 && /^(New Order|Payment|Delivery|Stock Level|Order Status): .*: (commit|rollback) \([\d.]+ ms\)$/.test(l.text));
    expect(tx.filter((l) => l.vu === 2)).toHaveLength(15);
    expect(tx.filter((l) => l.vu === 3)).toHaveLength(15);
    expect(out.lines.map((l) => l.text)).toContain('ALL VIRTUAL USERS COMPLETE');
    const timing = await get<TimingRow[]>(s, `/api/v1/jobs/${job.id}/timing`);
    expect(timing.reduce((a, t) => a + (t.vu === 0 ? t.calls : 0), 0)).toBe(30);
  });

  it('stops a running job within a few seconds and keeps it', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 10 } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring']);
    await new Promise((res) => setTimeout(res, 1500));
    const t0 = Date.now();
    const st = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/stop` });
    expect(st.statusCode).toBe(202);
    const job = await waitJob(s, id, 15_000);
    expect(job.status).toBe('stopped');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(job.result).toBeUndefined();
  });

  it('lists with filters, refuses to delete an active job, deletes a finished one', async () => {
    const runs = await get<JobList>(s, '/api/v1/jobs?type=run&engine=sqlite');
    expect(runs.jobs.length).toBe(3);
    const stopped = await get<JobList>(s, '/api/v1/jobs?status=stopped');
    expect(stopped.total).toBe(1);
    const text = await get<JobList>(s, '/api/v1/jobs?q=NOPM');
    expect(text.total).toBe(1);
    const del = await s.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${stopped.jobs[0]!.id}` });
    expect(del.statusCode).toBe(204);
    expect((await get<JobList>(s, '/api/v1/jobs?status=stopped')).total).toBe(0);
  });

  it('deletes the schema', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'delete', target });
    expect((await waitJob(s, String(r.body.id))).status).toBe('completed');
    const again = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: {} });
    expect(again.status).toBe(422);
  });
});
