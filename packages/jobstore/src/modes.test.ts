import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobStore } from './store.js';
import { storeFiles } from './files.js';
import { jobInput, tempDir } from './test/helpers.js';

const mode = (f: string) => statSync(f).mode & 0o777;

describe('store file modes', () => {
  it('creates the store, its WAL and shared memory, the lock, the reserve and the key owner-only (0600) whatever the umask', () => {
    const old = process.umask(0o000);
    try {
      const path = join(tempDir(), 'data', 'sledge.db');
      const store = JobStore.open(path);
      store.createJob(jobInput()); // the WAL now exists
      const f = storeFiles(path);
      for (const file of [f.db, `${f.db}-wal`, `${f.db}-shm`, f.lock, f.reserve, f.key]) expect([file, mode(file).toString(8)]).toEqual([file, '600']);
      store.close();
    } finally {
      process.umask(old);
    }
  });

  it('tightens the modes of an existing store at open', async () => {
    const path = join(tempDir(), 'sledge.db');
    JobStore.open(path).close();
    const { chmodSync } = await import('node:fs');
    chmodSync(path, 0o644);
    const store = JobStore.open(path);
    store.createJob(jobInput());
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}-wal`)).toBe(0o600);
    store.close();
  });
});
