import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { JobStore } from './store.js';
import { JobStoreLockedError } from './lock.js';
import { jobInput, tempStore } from './test/helpers.js';

const WRITER = fileURLToPath(new URL('./test/crash-writer.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const caught = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
};

const statusInFile = (path: string, id: string): string => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT status FROM job WHERE id = ?').get(id) as { status: string }).status;
  } finally {
    db.close();
  }
};

describe('one writer per job store', () => {
  it('refuses a second open in the same process, naming the holder, and leaves the first one\'s running job alone', () => {
    const { store, path } = tempStore();
    const job = store.createJob(jobInput());
    store.updateJob(job.id, { status: 'measuring', startedAt: new Date().toISOString() });

    const e = caught(() => JobStore.open(path));
    expect(e).toBeInstanceOf(JobStoreLockedError);
    expect((e as JobStoreLockedError).pid).toBe(process.pid);
    expect((e as Error).message).toContain(`pid ${process.pid}`);
    expect((e as Error).message).toContain(path);
    // No recovery step ran: the first store's job is still measuring, in the file too.
    expect(store.getJob(job.id)?.status).toBe('measuring');
    expect(statusInFile(path, job.id)).toBe('measuring');
    store.updateJob(job.id, { status: 'completed' });

    store.close();
    const again = JobStore.open(path);
    expect(again.getJob(job.id)?.status).toBe('completed');
    again.close();
  });

  it('refuses while another process holds the store, and takes over after that process is killed with SIGKILL', async () => {
    expect(existsSync(DIST), 'build first: pnpm --filter @sledge/jobstore build').toBe(true);
    const { store, path } = tempStore();
    store.close();
    const child = spawn(process.execPath, [WRITER, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((res) => child.on('exit', res));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    try {
      const by = Date.now() + 15000;
      while (!/^READY /m.test(out)) {
        if (Date.now() > by || child.exitCode !== null) throw new Error('writer did not start');
        await new Promise((r) => setTimeout(r, 20));
      }
      const jobId = /^READY (\S+)$/m.exec(out)?.[1] ?? '';
      const e = caught(() => JobStore.open(path));
      expect(e).toBeInstanceOf(JobStoreLockedError);
      expect((e as JobStoreLockedError).pid).toBe(child.pid);
      expect((e as Error).message).toMatch(new RegExp(`in use by another Sledge server \\(pid ${child.pid} on `));
      expect(statusInFile(path, jobId)).toBe('measuring');

      child.kill('SIGKILL');
      await exited;
      // The OS released the dead process's lock: no stale lock to clean by hand.
      const after = JobStore.open(path);
      try {
        expect(after.interruptedOnOpen).toEqual([jobId]);
        expect(after.getJob(jobId)?.status).toBe('interrupted');
      } finally {
        after.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
