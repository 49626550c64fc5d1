import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobStoreLockedError } from '@sledge/jobstore';
import type { Job } from '@sledge/protocol';
import { buildApp } from '../dist/app.js';
import { get, makeApp, post, waitJob, waitStatus } from './helpers.js';
import { freePort } from './free-port.js';

const MAIN = new URL('../dist/main.js', import.meta.url).pathname;

function start(dataDir: string, port: number): { child: ChildProcess; log: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, SLEDGE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SLEDGE_AGENT: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, log: () => log, exited };
}

async function healthy(port: number): Promise<boolean> {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) return true;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** One writer per data directory: a second server refuses to start, naming the holder; a killed server's lock is not stale. */
describe('two servers on one data directory', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a second buildApp on the same directory throws a typed error naming the pid, and the first one\'s running job is untouched', async () => {
    const s = await makeApp();
    dirs.push(s.dataDir);
    try {
      const r = await post(s, '/api/v1/jobs', { type: 'build', target: { engine: 'sqlite', file: 'lock.sqlite' }, tprocc: { warehouses: 1 } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const id = String(r.body.id);
      await waitStatus(s, id, ['running']);
      let err: unknown;
      try {
        await buildApp({ dataDir: s.dataDir, logger: false, uiDir: null });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(JobStoreLockedError);
      expect((err as JobStoreLockedError).pid).toBe(process.pid);
      expect((err as Error).message).toContain(`pid ${process.pid}`);
      // Not marked interrupted by the refused second server; it completes.
      expect((await get<Job>(s, `/api/v1/jobs/${id}`)).status).toBe('running');
      expect((await waitJob(s, id)).status).toBe('completed');
    } finally {
      await s.app.close();
    }
  });

  it('a second server process exits with the holder\'s pid; after kill -9 of the holder a new server starts on the same directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sledge-lock-'));
    dirs.push(dataDir);
    const port = await freePort();
    const first = start(dataDir, port);
    children.push(first.child);
    expect(await healthy(port), first.log()).toBe(true);

    const second = start(dataDir, await freePort());
    children.push(second.child);
    const code = await Promise.race([second.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(code, second.log()).toBe(1);
    expect(second.log()).toMatch(new RegExp(`Sledge cannot start: the job store .*sledge\\.db is in use by another Sledge server \\(pid ${first.child.pid} on `));
    expect(second.log()).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok).toBe(true);

    first.child.kill('SIGKILL');
    await first.exited;
    const thirdPort = await freePort();
    const third = start(dataDir, thirdPort);
    children.push(third.child);
    expect(await healthy(thirdPort), third.log()).toBe(true);
    third.child.kill('SIGTERM');
    await third.exited;
  });
});
