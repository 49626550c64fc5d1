import { afterAll, beforeAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@sledge/server';

const main = new URL('../dist/main.js', import.meta.url).pathname;

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

export interface ScriptOptions {
  /** The script file's name (script.tcl): a .py name runs it as a HammerDB Python script. */
  name?: string;
  /** $TMP for the script (a new temp dir): scripts that pass files to each other share one. */
  tmp?: string;
  /** More environment (PROFILEID ...). */
  env?: NodeJS.ProcessEnv;
}

/** Run `sledge hammerdb <args>` (script text through a file, or stdin with "-"). */
export function hammerdb(script: string, args: string[], stdin = false, opts: ScriptOptions = {}): Promise<Ran> {
  const dir = opts.tmp ?? mkdtempSync(join(tmpdir(), 'sledge-hdb-script-'));
  const file = join(dir, opts.name ?? 'script.tcl');
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [main, 'hammerdb', stdin ? '-' : file, ...args], { env: { ...process.env, TMP: dir, ...opts.env } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    if (stdin) p.stdin.end(script);
    else p.stdin.end();
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

/** A Sledge server in this process on a loopback port, with its own data directory. */
export async function startServer(): Promise<{ url: string; dataDir: string; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sledge-hdb-data-'));
  const { app } = await buildApp({ dataDir, logger: false, uiDir: null });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, dataDir, close: () => app.close() };
}

export async function api<T>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(`/api/v1${path}`, url), { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const data = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(data)}`);
  return data;
}

interface StoredJob {
  id: string;
  type: string;
  status: string;
  workload: string;
  profileId: number;
  config: { target: Record<string, unknown>; tprocc?: Record<string, unknown>; tproch?: Record<string, unknown> };
}

export const getJob = (url: string, id: string) => api<StoredJob>(url, 'GET', `/jobs/${id}`);

/** POST a job as the UI does, and wait for it to end. */
export async function uiJob(url: string, body: Record<string, unknown>): Promise<StoredJob> {
  const job = await api<StoredJob>(url, 'POST', '/jobs', body);
  for (;;) {
    const j = await getJob(url, job.id);
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(j.status)) return j;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The job ids a script's output names ("Benchmark Run jobid=ID", "Schema Build jobid=ID"). */
export const jobIds = (out: string, what: string): string[] => [...out.matchAll(new RegExp(`${what} jobid=([0-9A-F]{24})`, 'g'))].map((m) => m[1]!);

/** The workload part of a stored job's configuration: what the UI and the script must agree on. */
export const workloadConfig = (j: StoredJob) => ({ type: j.type, workload: j.workload, target: j.config.target, tprocc: j.config.tprocc, tproch: j.config.tproch });

/** One Sledge server for a test file: started before its tests, closed after; `flags` point the CLI at it. */
export function sharedServer(): { url: string; flags: string[] } {
  const s = { url: '', flags: [] as string[] };
  let close = async () => {};
  beforeAll(async () => {
    const started = await startServer();
    Object.assign(s, { url: started.url, flags: ['--server', started.url] });
    close = started.close;
  });
  afterAll(() => close());
  return s;
}
