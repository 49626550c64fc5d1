import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job, JobList } from '@sledge/protocol';
import { freePort } from './free-port.js';

const main = new URL('../dist/main.js', import.meta.url).pathname;

function start(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, SLEDGE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'pipe' });
  return new Promise((resolve, reject) => {
    const end = Date.now() + 30000;
    const poll = () =>
      fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        () => resolve(child),
        () => (Date.now() > end ? reject(new Error('server did not start')) : setTimeout(poll, 200)),
      );
    poll();
  });
}

const api = async <T>(port: number, path: string, body?: unknown): Promise<T> => {
  const r = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return (await r.json()) as T;
};

/** A server killed mid-run loses no job: on restart the run reads "interrupted", ended at its last sign of life (not the restart), and its output is there. */
describe('crash safety', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('marks a killed run interrupted and keeps everything before the kill', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sledge-crash-'));
    let port = await freePort();
    let srv = await start(dataDir, port);
    children.push(srv);
    const target = { engine: 'sqlite', file: 'crash.sqlite' };
    const build = await api<Job>(port, '/jobs', { type: 'build', target, tprocc: { warehouses: 1 } });
    for (;;) {
      const j = await api<Job>(port, `/jobs/${build.id}`);
      if (j.status === 'completed') break;
      expect(['queued', 'connecting', 'running']).toContain(j.status);
      await new Promise((r) => setTimeout(r, 500));
    }
    const run = await api<Job>(port, '/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 5 } });
    for (;;) {
      const j = await api<Job>(port, `/jobs/${run.id}`);
      if (j.status === 'measuring') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 3000));
    const killedAt = Date.now();
    srv.kill('SIGKILL');
    await new Promise((r) => srv.once('exit', r));
    // The server stays down a while: the restart's time is not when the job ended.
    await new Promise((r) => setTimeout(r, 3000));

    port = await freePort();
    srv = await start(dataDir, port);
    children.push(srv);
    const after = await api<Job>(port, `/jobs/${run.id}`);
    expect(after.status).toBe('interrupted');
    expect(after.error?.code).toBe('SLEDGE_E_INTERRUPTED');
    // endedAt is the job's last recorded sign of life (its newest stored line or sample), before the kill.
    const ended = Date.parse(after.endedAt ?? '');
    const lines = await api<{ lines: { ts: number }[] }>(port, `/jobs/${run.id}/output?limit=10000`);
    const series = await api<{ engine: { ts: number }[]; client: { ts: number }[] }>(port, `/jobs/${run.id}/tcount`);
    const newest = Math.max(...lines.lines.map((l) => l.ts), ...series.client.map((c) => c.ts), ...series.engine.map((e) => e.ts));
    expect(ended).toBeLessThanOrEqual(killedAt);
    expect(ended).toBeGreaterThanOrEqual(Math.floor(newest));
    expect(ended).toBeGreaterThanOrEqual(Date.parse(after.startedAt ?? ''));
    const list = await api<JobList>(port, '/jobs');
    expect(list.total).toBe(2);
    expect(list.jobs.find((j) => j.id === build.id)?.status).toBe('completed');
    const out = await api<{ lines: { text: string }[] }>(port, `/jobs/${run.id}/output?limit=1000`);
    expect(out.lines.map((l) => l.text)).toContain('Rampup complete, Taking start Transaction Count.');
    const tc = await api<{ client: unknown[] }>(port, `/jobs/${run.id}/tcount`);
    expect(tc.client.length).toBeGreaterThan(0);
    // The engine still works after the crash: check the schema.
    const check = await api<Job>(port, '/jobs', { type: 'check', target });
    for (;;) {
      const j = await api<Job>(port, `/jobs/${check.id}`);
      if (j.status !== 'queued' && j.status !== 'connecting' && j.status !== 'running') {
        expect(j.status).toBe('completed');
        break;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    srv.kill('SIGTERM');
  });
});
