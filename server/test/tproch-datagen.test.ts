import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, tprochBaseRows, tprochExpectedRows, tprochLineitemCount } from '@sledge/core';
import { makeApp, post, waitJob, type SledgeApp } from './helpers.js';

/** TPROC-H flat files: the build split over datagen workers, '|' separated, with a manifest. */
describe('TPROC-H datagen', () => {
  let s: SledgeApp;
  const root = mkdtempSync(join(tmpdir(), 'sledge-tproch-dg-'));

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('writes every table at SF 0.01 with 2 workers, counts exact, columns as TPROCH_COLUMNS', async () => {
    const dir = join(root, 'sf001');
    const r = await post(s, '/api/v1/jobs', { type: 'datagen', workload: 'tproch', target: { engine: 'postgresql' }, tproch: { scaleFactor: 0.01 }, datagen: { dir, workers: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const manifest = JSON.parse(readFileSync(join(dir, 'sledge-tproch.json'), 'utf8')) as { files: { table: string; file: string; rows: number }[]; separator: string };
    expect(manifest.separator).toBe('|');
    const expected = tprochExpectedRows(tprochBaseRows(0.01), tprochLineitemCount(0.01));
    const byTable: Record<string, number> = {};
    for (const f of manifest.files) {
      const lines = readFileSync(join(dir, f.file), 'utf8').split('\n').filter(Boolean);
      expect(lines.length, f.file).toBe(f.rows);
      const cols = TPROCH_COLUMNS[f.table as keyof typeof TPROCH_COLUMNS].length;
      for (const l of lines.slice(0, 50)) expect(l.split('|').length, `${f.file}: ${l}`).toBeGreaterThanOrEqual(cols);
      byTable[f.table] = (byTable[f.table] ?? 0) + f.rows;
    }
    expect(byTable).toEqual(expected);
    expect(readdirSync(dir)).toContain('lineitem.tbl.3');
  });

  it('refuses a directory that is not empty', async () => {
    const dir = join(root, 'full');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'other.txt'), 'x');
    const r = await post(s, '/api/v1/jobs', { type: 'datagen', workload: 'tproch', target: { engine: 'postgresql' }, tproch: { scaleFactor: 0.01 }, datagen: { dir, workers: 1 } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: { code: 'SLEDGE_E_CONFLICT', field: 'datagen.dir' } });
  });
});
