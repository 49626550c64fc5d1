import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { AgentFrame, validate, type CpuSample, type SystemInfo } from '@sledge/protocol';
import { AgentClient, agentUrl, backoffDelay, type SampleSource } from './client.js';

const SYSTEM: SystemInfo = { hostname: 'h1', cpuModel: 'Test CPU', cpuCount: 2, memoryBytes: 1024, os: 'Test OS', kernel: '6.1.0' };

/** Counts its samples; each is a valid CpuSample. */
class FakeCollector implements SampleSource {
  n = 0;
  async prime(): Promise<void> {}
  async sample(): Promise<CpuSample> {
    this.n++;
    return { ts: Date.now(), cpus: [{ cpu: 'all', usr: this.n, sys: 1, iowait: 0, irq: 0, soft: 0, steal: 0, idle: 99 - this.n }], iops: 1, mbps: 0.5 };
  }
}

interface Server {
  wss: WebSocketServer;
  frames: AgentFrame[];
  paths: string[];
  auth: Array<string | undefined>;
  port: number;
}

async function serve(port = 0): Promise<Server> {
  const wss = new WebSocketServer({ port, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const s: Server = { wss, frames: [], paths: [], auth: [], port: (wss.address() as AddressInfo).port };
  wss.on('connection', (ws, req) => {
    s.paths.push(req.url ?? '');
    s.auth.push(req.headers.authorization);
    ws.on('message', (raw) => s.frames.push(validate(AgentFrame, JSON.parse(String(raw)))));
  });
  return s;
}

async function shut(s: Server): Promise<void> {
  for (const c of s.wss.clients) c.terminate();
  await new Promise<void>((r) => s.wss.close(() => r()));
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

describe('agent WebSocket client', () => {
  it('builds the agent URL from a server address', () => {
    expect(agentUrl('ws://db1:8080')).toBe('ws://db1:8080/api/v1/agent');
    expect(agentUrl('http://db1:8080/')).toBe('ws://db1:8080/api/v1/agent');
    expect(agentUrl('https://sledge.example')).toBe('wss://sledge.example/api/v1/agent');
    expect(agentUrl('ws://db1:8080/custom/agent')).toBe('ws://db1:8080/custom/agent');
    expect(() => agentUrl('ftp://x')).toThrow(/ws:\/\//);
  });

  it('backs off exponentially up to the cap, with jitter', () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, 1000, 30000, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 30000]);
    expect(backoffDelay(0, 1000, 30000, () => 0)).toBe(800);
    expect(backoffDelay(0, 1000, 30000, () => 1)).toBe(1200);
  });

  it('sends hello then cpu frames, with the token, and reconnects with hello after the server restarts', async () => {
    let server = await serve();
    const port = server.port;
    cleanup.push(() => shut(server));
    const logs: string[] = [];
    const collector = new FakeCollector();
    const client = new AgentClient({
      server: `ws://127.0.0.1:${port}`,
      label: 'load-gen-1',
      system: SYSTEM,
      collector,
      intervalMs: 100,
      token: 's3cret',
      log: (l) => logs.push(l),
      backoff: { initialMs: 50, maxMs: 400 },
    });
    cleanup.unshift(() => client.stop());
    await client.start();

    await until(() => server.frames.filter((f) => f.t === 'cpu').length >= 3);
    expect(server.paths[0]).toBe('/api/v1/agent');
    expect(server.auth[0]).toBe('Bearer s3cret');
    expect(server.frames[0]).toEqual({ t: 'hello', label: 'load-gen-1', system: SYSTEM });
    expect(server.frames.slice(1).every((f) => f.t === 'cpu')).toBe(true);

    // The server goes away: the client keeps retrying, then finds it again on the same port.
    await shut(server);
    await sleep(300);
    server = await serve(port);
    await until(() => server.frames.filter((f) => f.t === 'cpu').length >= 2);
    expect(server.frames[0]).toMatchObject({ t: 'hello', label: 'load-gen-1' });
    expect(server.frames.slice(1).every((f) => f.t === 'cpu')).toBe(true);
    expect(logs.some((l) => /reconnecting in/.test(l))).toBe(true);
    expect(logs.filter((l) => l.startsWith('connected to')).length).toBeGreaterThanOrEqual(2);
    // Samples kept coming while disconnected (one interval each), so the frames after the restart are fresh.
    const firstAfter = server.frames.find((f) => f.t === 'cpu');
    expect(firstAfter && firstAfter.t === 'cpu' && firstAfter.sample.cpus[0]!.usr).toBeGreaterThan(3);
  });

  it('keeps retrying while no server listens, and stop() ends it', async () => {
    const probe = await serve();
    const port = probe.port;
    await shut(probe);
    const logs: string[] = [];
    const client = new AgentClient({ server: `ws://127.0.0.1:${port}`, label: 'x', system: SYSTEM, collector: new FakeCollector(), intervalMs: 100, log: (l) => logs.push(l), backoff: { initialMs: 20, maxMs: 40 } });
    await client.start();
    await until(() => logs.filter((l) => /reconnecting in/.test(l)).length >= 3);
    await client.stop();
    const n = logs.length;
    await sleep(200);
    expect(logs.length).toBe(n);
  });

  it('truncates a long label to the 100 characters the server accepts, and falls back to the host name', async () => {
    const server = await serve();
    cleanup.push(() => shut(server));
    const a = new AgentClient({ server: `ws://127.0.0.1:${server.port}`, label: 'L'.repeat(150), system: SYSTEM, collector: new FakeCollector(), intervalMs: 1000, log: () => undefined });
    const b = new AgentClient({ server: `ws://127.0.0.1:${server.port}`, label: '  ', system: SYSTEM, collector: new FakeCollector(), intervalMs: 1000, log: () => undefined });
    cleanup.unshift(() => a.stop(), () => b.stop());
    await a.start();
    await b.start();
    await until(() => server.frames.length >= 2);
    const labels = server.frames.map((f) => (f.t === 'hello' ? f.label : '')).sort();
    expect(labels).toEqual(['L'.repeat(100), 'h1'].sort());
  });
});
