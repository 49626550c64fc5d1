import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job, VuStatus } from '@sledge/protocol';
import { get, makeApp, post, waitJob, waitStatus } from './helpers.js';
import { mountTmpfs, sqliteDatabase, unmount } from './fs-helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';
import { freePort } from './free-port.js';

const Database = sqliteDatabase();
const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
type Err = { error: { code: string; message: string; field?: string } };

const pgConfig = (name: string) => ({ name, target: { engine: 'sqlite', file: `${name}.sqlite` } });

/** A 1-warehouse SQLite target outside the data directory, copied once for the whole file from the tier's template. */
const targetDir = mkdtempSync(join(tmpdir(), 'sledge-faults-target-'));
const target = { engine: 'sqlite', file: join(targetDir, 'faults.sqlite') };
let built = false;
async function ensureTarget(): Promise<void> {
  if (built) return;
  sqliteFromTemplate({ dataDir: targetDir }, target.file);
  built = true;
}

afterAll(() => rmSync(targetDir, { recursive: true, force: true }));

describe('a job store that can no longer grow (SQLite page cap: portable, no root)', () => {
  it('fails the running job with the reason, stops its VUs, keeps the server up and answers writes with 507', async () => {
    await ensureTarget();
    const s = await makeApp();
    try {
      const saved = await post(s, '/api/v1/configs', pgConfig('before'));
      expect(saved.status).toBe(201);
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 2 } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const id = String(r.body.id);
      await waitStatus(s, id, ['measuring'], 60_000);
      await new Promise((res) => setTimeout(res, 1500));
      s.store.setMaxBytes(0); // the store may not grow any more: the next write that needs a page fails

      const job = await waitJob(s, id, 60_000);
      expect(job.status).toBe('failed');
      expect(job.error?.code).toBe('SLEDGE_E_STORAGE_FULL');
      expect(job.error?.message).toContain(s.dataDir);
      // The VUs were stopped: none is left running, and the job ended well before its 2 minutes.
      const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${id}/vus`).catch(() => [] as VuStatus[]);
      expect(vus.filter((v) => v.state === 'running')).toEqual([]);
      expect(Date.parse(job.endedAt ?? '') - Date.parse(job.startedAt ?? '')).toBeLessThan(90_000);

      // The server is up; writes answer 507 with a typed error naming the data directory.
      expect((await get<{ ok: boolean }>(s, '/api/v1/health')).ok).toBe(true);
      let cfg = await post(s, '/api/v1/configs', pgConfig('x'.repeat(90)));
      for (let i = 0; cfg.status === 201 && i < 200; i++) cfg = await post(s, '/api/v1/configs', pgConfig(`c${i}${'y'.repeat(90)}`));
      expect(cfg.status).toBe(507);
      expect((cfg.body as Err).error.code).toBe('SLEDGE_E_STORAGE_FULL');
      expect((cfg.body as Err).error.message).toContain(s.dataDir);
      expect(JSON.stringify(cfg.body)).not.toMatch(/at .*\.js:\d+/); // no stack trace

      // Room again: everything works, and nothing stored before was damaged.
      s.store.setMaxBytes(1024 ** 3);
      expect((await post(s, '/api/v1/configs', pgConfig('after'))).status).toBe(201);
      expect((await get<{ name: string }[]>(s, '/api/v1/configs')).map((c) => c.name)).toEqual(expect.arrayContaining(['before', 'after']));
      const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=1000`);
      expect(out.lines.map((l) => l.text).join('\n')).toMatch(/Error: the data directory .* is full/);
    } finally {
      await s.app.close();
    }
    const db = new Database(join(s.dataDir, 'sledge.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });
});

// --- a real disk: a spawned server ------------------------------------------------------------

function startServer(dataDir: string, port: number, wrap: string[] = []): { child: ChildProcess; log: () => string } {
  const argv = [...wrap, process.execPath, MAIN];
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { ...process.env, SLEDGE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SLEDGE_AGENT: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  return { child, log: () => log };
}

async function waitHealthy(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const end = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`server did not start: ${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const api = async (port: number, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const r = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

async function waitApiJob(port: number, id: string, statuses: string[], timeoutMs: number): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const j = (await api(port, `/jobs/${id}`)).body as unknown as Job;
    if (statuses.includes(j.status)) return j;
    if (Date.now() > end) throw new Error(`job ${id} still ${j.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Write zeros into `file` until the file system is full. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let n = 0;
  try {
    for (;;) n += writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
  return n;
}

describe('a real full disk under a running server', () => {
  const children: ChildProcess[] = [];
  const mounts: string[] = [];
  const dirs: string[] = [];
  const tempData = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    for (const m of mounts) unmount(m);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** RLIMIT_FSIZE on the server process (Node ignores SIGXFSZ, so writes past the limit fail with EFBIG). */
  async function fileSizeLimitCase(dataDir: string): Promise<void> {
    let port = await freePort();
    const first = startServer(dataDir, port);
    children.push(first.child);
    await waitHealthy(port, first.child, first.log);
    expect((await api(port, '/configs', pgConfig('kept'))).status).toBe(201);
    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.once('exit', r));
    const limit = statSync(join(dataDir, 'sledge.db')).size + 16 * 1024;
    port = await freePort();
    const srv = startServer(dataDir, port, ['prlimit', `--fsize=${limit}:${limit}`]);
    children.push(srv.child);
    await waitHealthy(port, srv.child, srv.log);
    let r = await api(port, '/configs', pgConfig('c0'));
    for (let i = 1; r.status === 201 && i < 500; i++) r = await api(port, '/configs', pgConfig(`c${i}-${'z'.repeat(90)}`));
    expect(r.status, JSON.stringify(r.body)).toBe(507);
    expect((r.body as unknown as Err).error.code).toMatch(/^SLEDGE_E_STORAGE_(FULL|IO)$/);
    expect((r.body as unknown as Err).error.message).toContain(dataDir);
    expect(srv.child.exitCode).toBeNull();
    // New jobs are refused before anything is stored: no room for the reserve.
    const job = await api(port, '/jobs', { type: 'check', target });
    expect(job.status, JSON.stringify(job.body)).toBe(507);
    expect((await api(port, '/health')).status).toBe(200);
    srv.child.kill('SIGKILL');
    await new Promise((r) => srv.child.once('exit', r));
    const db = new Database(join(dataDir, 'sledge.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT name FROM saved_config ORDER BY id').all() as { name: string }[])[0]?.name).toBe('kept');
    db.close();
  }

  it('answers 507 and stays up when a file-size limit stops the job store growing (any user)', async () => {
    await ensureTarget();
    await fileSizeLimitCase(tempData('sledge-fsize-'));
  });

  it('fails the run with the reason, stays up, answers 507, and keeps everything stored (a 3 MB tmpfs, or a file-size limit when not root)', async () => {
    await ensureTarget();
    const dataDir = tempData('sledge-fulldisk-');
    let port = await freePort();
    const tmpfs = mountTmpfs(dataDir, '3m');
    if (tmpfs) mounts.push(dataDir);

    if (!tmpfs) {
      // Not allowed to mount: the portable file-size limit instead (the page-cap test above covers the run).
      await fileSizeLimitCase(dataDir);
      return;
    }

    const srv = startServer(dataDir, port);
    children.push(srv.child);
    await waitHealthy(port, srv.child, srv.log);
    expect((await api(port, '/configs', pgConfig('kept'))).status).toBe(201);
    const run = await api(port, '/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 2 } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const id = String(run.body.id);
    await waitApiJob(port, id, ['measuring'], 60_000);
    await new Promise((r) => setTimeout(r, 2000));
    const filler = join(dataDir, 'filler');
    fillDisk(filler);

    const job = await waitApiJob(port, id, ['failed', 'completed', 'stopped', 'interrupted'], 60_000);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe('SLEDGE_E_STORAGE_FULL');
    expect(job.error?.message).toContain(dataDir);
    expect(srv.child.exitCode).toBeNull();
    expect(srv.log()).not.toMatch(/SqliteError|uncaught/i);

    // Idle and still full: writes get 507 naming the data directory, never 500.
    let cfg = await api(port, '/configs', pgConfig('c0'));
    for (let i = 1; cfg.status === 201 && i < 300; i++) cfg = await api(port, '/configs', pgConfig(`c${i}-${'z'.repeat(90)}`));
    expect(cfg.status).toBe(507);
    expect((cfg.body as unknown as Err).error.message).toContain(dataDir);
    const refused = await api(port, '/jobs', { type: 'check', target });
    expect(refused.status).toBe(507);
    expect((refused.body as unknown as Err).error.code).toBe('SLEDGE_E_STORAGE_FULL');

    // Free the space: jobs run again; after a restart everything recorded is there, the file intact.
    rmSync(filler);
    const check = await api(port, '/jobs', { type: 'check', target });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    expect((await waitApiJob(port, String(check.body.id), ['completed', 'failed'], 60_000)).status).toBe('completed');
    srv.child.kill('SIGKILL');
    await new Promise((r) => srv.child.once('exit', r));
    port = await freePort();
    const again = startServer(dataDir, port);
    children.push(again.child);
    await waitHealthy(port, again.child, again.log);
    const after = (await api(port, `/jobs/${id}`)).body as unknown as Job;
    expect(after.status).toBe('failed');
    expect(after.error?.code).toBe('SLEDGE_E_STORAGE_FULL');
    expect(((await api(port, '/configs')).body as unknown as { name: string }[]).map((c) => c.name)).toContain('kept');
    again.child.kill('SIGTERM');
    await new Promise((r) => again.child.once('exit', r));
    const db = new Database(join(dataDir, 'sledge.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(existsSync(join(dataDir, 'sledge.db'))).toBe(true);
  });
});
