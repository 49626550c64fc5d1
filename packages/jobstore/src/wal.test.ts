import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { WAL_SIZE_LIMIT } from './db.js';
import { jobInput, sleep, tempStore } from './test/helpers.js';

const walBytes = (path: string) => statSync(`${path}-wal`).size;

describe('the job store WAL stays bounded', () => {
  it('is checkpointed and truncated on a timer after a reader starved the automatic checkpoint', async () => {
    const { store, path } = tempStore({ checkpointMs: 100 });
    const job = store.createJob(jobInput());
    // A long reader (a backup, an sqlite3 shell) pins the WAL: SQLite's automatic checkpoint cannot restart it.
    const reader = new Database(path, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM job').get();
    for (let i = 0; i < 400; i++) {
      store.appendOutput(job.id, Array.from({ length: 50 }, (_, k) => ({ vu: 1, ts: i * 50 + k, text: `${i}/${k} ${'w'.repeat(400)}` })));
      store.flush();
    }
    const pinned = walBytes(path);
    expect(pinned).toBeGreaterThan(2 * WAL_SIZE_LIMIT);
    reader.exec('COMMIT');
    reader.close();
    await sleep(400);
    const after = walBytes(path);
    console.log(`[jobstore wal] ${(pinned / 1e6).toFixed(1)} MB while a reader held it, ${(after / 1e6).toFixed(2)} MB after the timed checkpoint`);
    expect(after).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    expect(store.getOutput(job.id, { limit: 1 }).total).toBe(20000);
  });

  it('checkpoint() folds the WAL into the database and truncates it, and never waits for a reader', () => {
    const { store, path } = tempStore();
    const job = store.createJob(jobInput());
    store.appendOutput(job.id, [{ vu: 1, ts: 1, text: 'x' }]);
    store.flush();
    const reader = new Database(path, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM job').get();
    const t0 = Date.now();
    expect(store.checkpoint()?.busy).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000); // not the 30 s busy timeout
    reader.exec('COMMIT');
    reader.close();
    expect(store.checkpoint()?.busy).toBe(false);
    expect(walBytes(path)).toBe(0);
  });
});
