import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import type { Job } from '@sledge/protocol';
import { unsigned, type FrameMsg } from '@sledge/server/replicas/wire';

const cli = new URL('../dist/main.js', import.meta.url).pathname;

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A nats-server of the test's own (own port, own JetStream directory), with
 * token auth unless token is null; `at` starts it again on a port and
 * directory a killed one had. `kill` is a crash (SIGKILL, the directory kept).
 */
export async function startNats(
  token: string | null,
  at: { port?: number; dir?: string } = {},
): Promise<{ url: string; port: number; dir: string; stop: () => Promise<void>; kill: () => Promise<void> }> {
  const port = at.port ?? (await freePort());
  const dir = at.dir ?? mkdtempSync(join(tmpdir(), 'sledge-nats-'));
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir, ...(token ? ['--auth', token] : [])];
  const p = spawn('nats-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  p.stderr.on('data', (d: Buffer) => (log += d));
  p.stdout.on('data', (d: Buffer) => (log += d));
  const failed = new Promise<never>((_, reject) => p.once('error', (e) => reject(new Error(`nats-server does not start (${e.message}): install it (Debian: apt-get install nats-server)`))));
  await Promise.race([waitFor(() => /Server is ready/.test(log), 'nats-server'), failed]);
  const exited = new Promise((r) => p.once('exit', r));
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    dir,
    stop: async () => {
      if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
    kill: async () => {
      p.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * A TCP relay in front of a NATS server, to cut one client off the network:
 * `cut` drops every relayed connection and refuses new ones (messages sent to
 * the client meanwhile are lost, as on a real partition); `restore` lets it
 * reconnect.
 */
export async function startRelay(natsUrl: string): Promise<{ url: string; cut: () => void; restore: () => void; close: () => Promise<void> }> {
  const target = new URL(natsUrl);
  const sockets = new Set<Socket>();
  let blocked = false;
  const server = createServer((client) => {
    if (blocked) return void client.destroy();
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    cut: () => {
      blocked = true;
      dropAll();
    },
    restore: () => {
      blocked = false;
    },
    close: async () => {
      blocked = true;
      dropAll();
      await new Promise((r) => server.close(r));
    },
  };
}

export interface ReplicaProc {
  proc: ChildProcess;
  /** stderr so far (the replica's log). */
  log: () => string;
  waitLog: (re: RegExp, timeoutMs?: number) => Promise<void>;
  exited: Promise<number | null>;
}

/** `sledge replica` as a child process (the built CLI), configured through flags (env for the token when given). */
export function startReplica(name: string, url: string, opts: { token?: string; extra?: string[]; env?: Record<string, string> } = {}): ReplicaProc {
  const args = [cli, 'replica', '--nats', url, '--name', name, ...(opts.extra ?? [])];
  const proc = spawn(process.execPath, args, { env: { ...process.env, ...(opts.token ? { SLEDGE_NATS_TOKEN: opts.token } : {}), ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d));
  proc.stdout!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
  return { proc, log: () => err, waitLog: (re, timeoutMs) => waitFor(() => re.test(err), `replica ${name}: ${re}`, timeoutMs), exited };
}

export { waitFor };

/**
 * A job's frames as the replicas sent them (JetStream stream SLEDGE_FRAMES): every frame's text,
 * how many window profiles there were, and those profiles' latencies merged per operation.
 */
export async function replicaFrames(natsUrl: string, token: string, jobId: string): Promise<{ raw: string[]; profiles: number; merged: Map<string, RecordableHistogram> }> {
  const nc = await connect({ servers: natsUrl, token });
  try {
    const c = await jetstream(nc).consumers.get('SLEDGE_FRAMES', { filter_subjects: `sledge.frames.${jobId}.*` });
    const merged = new Map<string, RecordableHistogram>();
    const raw: string[] = [];
    let profiles = 0;
    for (;;) {
      const m = await c.next({ expires: 2000 });
      if (!m) break;
      raw.push(m.string());
      const f = unsigned<FrameMsg>(m.data)!.f;
      if (f.t !== 'profile') continue;
      profiles++;
      for (const v of f.vus) {
        for (const [op, x] of Object.entries(v.perType)) {
          const h = merged.get(op) ?? createHistogram();
          for (let i = 0; i < x.pairs.length; i += 2) for (let k = 0; k < x.pairs[i + 1]!; k++) h.record(x.pairs[i]!);
          merged.set(op, h);
        }
      }
    }
    return { raw, profiles, merged };
  } finally {
    await nc.close();
  }
}

/** The calls the replicas tests make on an in-process server app (buildApp). */
export interface AppLike {
  app: { inject: (o: { method: 'GET' | 'POST'; url: string; payload?: object }) => Promise<{ statusCode: number; json: () => unknown }> };
}

export function appApi(app: () => AppLike) {
  const get = async <T>(url: string): Promise<T> => (await app().app.inject({ method: 'GET', url })).json() as T;
  const post = async (url: string, body: unknown) => {
    const r = await app().app.inject({ method: 'POST', url, payload: body as object });
    return { status: r.statusCode, body: r.json() as Record<string, unknown> };
  };
  /** Wait until the job has ended (or is in one of `statuses`) and return it. */
  const waitJob = async (id: string, timeoutMs = 180_000, statuses = ['completed', 'failed', 'stopped', 'interrupted']): Promise<Job> => {
    let j: Job | undefined;
    await waitFor(async () => statuses.includes((j = await get<Job>(`/api/v1/jobs/${id}`)).status), `job ${id}`, timeoutMs);
    return j!;
  };
  return { get, post, waitJob };
}
