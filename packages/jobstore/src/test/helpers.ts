import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { JobStore, type JobStoreOptions } from '../store.js';
import type { CreateJobInput } from '../jobs.js';

const cleanups: (() => void)[] = [];

afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A fresh temp directory removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sledge-jobstore-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A store in a fresh temp directory, closed and removed after the test. */
export function tempStore(opts: JobStoreOptions = {}): { store: JobStore; dir: string; path: string } {
  const dir = tempDir();
  const path = join(dir, 'data', 'sledge.db');
  const store = JobStore.open(path, opts);
  cleanups.push(() => store.close());
  return { store, dir, path };
}

export function jobInput(over: Partial<CreateJobInput> = {}): CreateJobInput {
  return {
    type: 'run',
    workload: 'tprocc',
    engine: 'postgresql',
    config: { target: { engine: 'postgresql', host: '127.0.0.1', password: '********' }, tprocc: { warehouses: 1, vus: 2 } },
    seed: 42,
    profileId: 0,
    clientVersion: '0.1.0',
    ...over,
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
