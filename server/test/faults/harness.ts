import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import WebSocket from 'ws';
import type { Job, JobStreamFrame, ServerFrame } from '@sledge/protocol';
import { freePort } from '../free-port.js';

export { freePort };

/**
 * The fault suite's tools: a real server process (server/dist/main.js) on a
 * loopback port and a data directory, its REST API, a WebSocket watcher that
 * records every frame of a job, the process's RSS, and psql for PostgreSQL.
 */

const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
const TERMINAL = ['completed', 'failed', 'stopped', 'interrupted'];

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const dirs: string[] = [];
// After every suite of the file (servers stopped, stores closed): remove the data directories.
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh data directory, removed when the test file ends. */
export function tempDir(tag: string): string {
  const d = mkdtempSync(join(tmpdir(), `sledge-fault-${tag}-`));
  dirs.push(d);
  return d;
}


export interface Server {
  readonly port: number;
  readonly base: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr. */
  readonly log: () => string;
  /** Resident set size of the server process, in MB (Linux /proc). */
  rssMb(): number;
  /** SIGKILL, resolved once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean shutdown), resolved once the process is gone (SIGKILL after 20 s). */
  stop(): Promise<void>;
  readonly exited: boolean;
}

/** Start `node server/dist/main.js` on 127.0.0.1 and wait until /api/v1/health answers. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, SLEDGE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SLEDGE_AGENT: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  let exited = false;
  const gone = new Promise<void>((r) => child.once('exit', () => ((exited = true), r())));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`server exited at start: ${out}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 30 s: ${out}`);
    }
    await sleep(100);
  }
  return {
    port,
    base,
    dataDir,
    child,
    log: () => out,
    rssMb: () => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    kill9: async () => {
      if (!exited) child.kill('SIGKILL');
      await gone;
    },
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await gone;
      clearTimeout(t);
    },
    get exited() {
      return exited;
    },
  };
}

export interface Reply<T> {
  status: number;
  body: T;
}

export async function api<T = Record<string, unknown>>(srv: Server, path: string, body?: unknown): Promise<Reply<T>> {
  const init: RequestInit = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const r = await fetch(`${srv.base}/api/v1${path}`, init);
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : {}) as T };
}

export async function getJson<T>(srv: Server, path: string): Promise<T> {
  const r = await api<T>(srv, path);
  if (r.status >= 400) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** POST /jobs; throws with the error body unless 201. */
export async function submit(srv: Server, body: Record<string, unknown>): Promise<Job> {
  const r = await api<Job>(srv, '/jobs', body);
  if (r.status !== 201) throw new Error(`POST /jobs ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function waitStatus(srv: Server, id: string, statuses: string[], timeoutMs = 120_000): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const j = await getJson<Job>(srv, `/jobs/${id}`);
    if (statuses.includes(j.status)) return j;
    if (TERMINAL.includes(j.status) && !statuses.some((s) => TERMINAL.includes(s))) throw new Error(`job ${id} ended ${j.status} while waiting for ${statuses.join('|')}: ${JSON.stringify(j.error)}`);
    if (Date.now() > end) throw new Error(`job ${id} still ${j.status} after ${timeoutMs} ms (waiting for ${statuses.join('|')})`);
    await sleep(200);
  }
}

export const waitJob = (srv: Server, id: string, timeoutMs = 240_000) => waitStatus(srv, id, TERMINAL, timeoutMs);

/** Submit a job and wait for it to end. */
export async function runToEnd(srv: Server, body: Record<string, unknown>, timeoutMs?: number): Promise<Job> {
  return waitJob(srv, (await submit(srv, body)).id, timeoutMs);
}

export type Line = { seq: number; vu: number; ts: number; text: string };

/** Every stored output line of a job (paged, 10000 at a time). */
export async function outputOf(srv: Server, id: string, query = ''): Promise<Line[]> {
  const all: Line[] = [];
  for (let after = 0; ; ) {
    const page = (await getJson<{ lines: Line[] }>(srv, `/jobs/${id}/output?limit=10000&afterSeq=${after}${query}`)).lines;
    all.push(...page);
    if (page.length < 10000) return all;
    after = page[page.length - 1]!.seq;
  }
}

/** The JSON export of a job without its export timestamp: equal documents mean an unchanged job. */
export async function exportOf(srv: Server, id: string): Promise<unknown> {
  const doc = await getJson<Record<string, unknown>>(srv, `/jobs/${id}/export?format=json`);
  delete doc['exportedAt'];
  return doc;
}

/**
 * One WebSocket viewer of one job: records every frame it receives and the
 * seq it is complete up to (a snapshot's seq, then +1 per frame).
 */
export class Watcher {
  readonly frames: ServerFrame[] = [];
  /** Stream frames (those with a seq), in arrival order. */
  readonly seqFrames: JobStreamFrame[] = [];
  lastSeq = 0;
  private ws: WebSocket | null = null;

  constructor(
    private readonly srv: Server,
    readonly jobId: string,
  ) {}

  /** Open a socket and subscribe (resuming after `since` when given). */
  async open(since?: number): Promise<void> {
    const ws = new WebSocket(`${this.srv.base.replace('http', 'ws')}/api/v1/ws`);
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.on('message', (m) => {
      const f = JSON.parse(String(m)) as ServerFrame;
      this.frames.push(f);
      if (f.t === 'snapshot') this.lastSeq = f.snapshot.seq;
      else if ('seq' in f && typeof f.seq === 'number') {
        this.seqFrames.push(f);
        this.lastSeq = f.seq;
      }
    });
    ws.send(JSON.stringify(since === undefined ? { t: 'subscribe', jobId: this.jobId } : { t: 'subscribe', jobId: this.jobId, since }));
  }

  /** Drop the socket abruptly (no close handshake), as a lost network would. */
  drop(): void {
    this.ws?.terminate();
    this.ws = null;
  }

  close(): void {
    this.ws?.close();
    this.ws = null;
  }

  has(t: ServerFrame['t']): boolean {
    return this.frames.some((f) => f.t === t);
  }

  /** Resolves once a frame matching `pred` has arrived. */
  async waitFor(pred: (f: ServerFrame) => boolean, timeoutMs = 120_000): Promise<ServerFrame> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const f = this.frames.find(pred);
      if (f) return f;
      if (Date.now() > end) throw new Error(`no matching frame within ${timeoutMs} ms on job ${this.jobId}`);
      await sleep(50);
    }
  }
}

/** psql as the superuser on 127.0.0.1:5432 (-At output, trimmed). */
export function psql(sql: string, database = 'postgres'): string {
  const r = spawnSync('psql', ['-X', '-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

/**
 * Restart the local PostgreSQL in immediate mode (as a crash does) and wait
 * until it accepts connections again. The command is SLEDGE_PG_RESTART
 * (default: the Debian cluster 15/main, pg_ctlcluster ... restart -m
 * immediate). Solo tier only: every session of the server is cut.
 */
export function restartPostgres(): void {
  const cmd = process.env['SLEDGE_PG_RESTART'] ?? 'pg_ctlcluster 15 main restart -m immediate';
  const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`restarting PostgreSQL (${cmd}) failed: ${r.stderr || r.stdout}`);
  for (let i = 0; i < 60; i++) {
    try {
      psql('SELECT 1');
      return;
    } catch {
      spawnSync('sleep', ['0.5']);
    }
  }
  throw new Error('PostgreSQL did not come back within 30 s');
}

/** A PostgreSQL target whose role and database are both `name` (this suite's prefix: sledge_sf_). */
export function pgTarget(name: string, password: string) {
  return { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: name, password, database: name, superuser: 'postgres', superuserPassword: 'postgres' };
}

/** Drop the database and role `name` if a previous run left them behind. */
export function dropPg(name: string): void {
  psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
  psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  psql(`DROP ROLE IF EXISTS ${name}`);
}

/** Mean and relative spread (max-min over mean, %) of a list of numbers. */
export function spread(xs: number[]): { mean: number; min: number; max: number; spreadPct: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  return { mean, min, max, spreadPct: mean ? ((max - min) / mean) * 100 : 0 };
}
