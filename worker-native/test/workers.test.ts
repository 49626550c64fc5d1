import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { TproccGenerator, type TproccUnit } from '@sledge/core';
import { describe, expect, it } from 'vitest';

interface Report {
  available: boolean;
  kind: string;
  tables: { table: string; rows: number; isBuffer: boolean; sha: string }[];
}

const fixture = new URL('./fixtures/generate-worker.mjs', import.meta.url);
const ctx = { seed: 31337, timestamp: '2026-11-22 00:00:00' };
const units: TproccUnit[] = [
  { kind: 'item', from: 1, to: 10000 },
  { kind: 'warehouse', w: 2 },
  { kind: 'stock', w: 2, from: 1, to: 10000 },
  { kind: 'district', w: 2 },
  { kind: 'customer', w: 2, d: 1 },
  { kind: 'orders', w: 2, d: 10 },
];

function runWorkers(n: number): Promise<Report[]> {
  const barrier = new SharedArrayBuffer(4);
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Report>((resolve, reject) => {
          const w = new Worker(fixture, { workerData: { barrier, parties: n, ctx, format: 'pg-text', units } });
          w.once('message', (m: Report) => resolve(m));
          w.once('error', reject);
          w.once('exit', (code) => {
            if (code !== 0) reject(new Error(`worker exited with ${code}`));
          });
        }),
    ),
  );
}

function expected(): Report['tables'] {
  const g = new TproccGenerator(ctx, 'pg-text');
  return units.flatMap((u) =>
    g.generate(u).map((t) => ({ table: t.table, rows: t.rows, isBuffer: true, sha: createHash('sha256').update(t.data as string).digest('hex') })),
  );
}

describe('the addon in worker threads', () => {
  it('the built JS entry exists (workers load dist/, not TypeScript)', () => {
    expect(existsSync(new URL('../dist/index.js', import.meta.url))).toBe(true);
  });

  it('two workers load it at the same moment and generate identical bytes, equal to TypeScript', async () => {
    const [a, b] = await runWorkers(2);
    for (const r of [a!, b!]) {
      expect(r.available).toBe(true);
      expect(r.kind).toBe('native');
    }
    expect(a!.tables).toEqual(b!.tables);
    expect(a!.tables).toEqual(expected());
  });

  it('loads again in fresh workers after earlier ones exited (per-instance state is released and rebuilt)', async () => {
    const [c] = await runWorkers(1);
    expect(c!.kind).toBe('native');
    expect(c!.tables).toEqual(expected());
  });
});
