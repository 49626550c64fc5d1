import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { TprochGenerator, type TprochUnit } from '@sledge/core';
import { describe, expect, it } from 'vitest';
import { tprochSharedPool } from '../lib/index.js';

interface Report {
  kind: string;
  setupMs: number;
  shared: boolean;
  tables: { table: string; rows: number; sha: string }[];
}

const fixture = new URL('./fixtures/tproch-worker.mjs', import.meta.url);
const units: TprochUnit[] = [
  { kind: 'region' },
  { kind: 'supplier', from: 1, to: 100 },
  { kind: 'part', from: 1001, to: 1200 },
  { kind: 'orders', from: 1, to: 500 },
];

describe('TPROC-H generator in worker threads', () => {
  it('a worker handed the main thread’s SharedArrayBuffer pool generates the TypeScript bytes without building its own', async () => {
    const pool = tprochSharedPool();
    expect(pool.buffer).toBeInstanceOf(SharedArrayBuffer);
    const report = await new Promise<Report>((resolve, reject) => {
      const w = new Worker(fixture, { workerData: { pool, sf: 0.01, format: 'csv', units } });
      w.once('message', (m: Report) => resolve(m));
      w.once('error', reject);
      w.once('exit', (code) => {
        if (code !== 0) reject(new Error(`worker exited with ${code}`));
      });
    });
    expect(report.kind).toBe('native');
    expect(report.shared).toBe(true);
    // Building the pool takes seconds; taking the shared one is immediate.
    expect(report.setupMs).toBeLessThan(1000);
    const g = new TprochGenerator(0.01, 'csv');
    const want = units.flatMap((u) => g.generate(u).map((t) => ({ table: t.table, rows: t.rows, sha: createHash('sha256').update(t.data as string).digest('hex') })));
    expect(report.tables).toEqual(want);
  });
});
