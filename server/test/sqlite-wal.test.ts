import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WAL_SIZE_LIMIT } from '@sledge/jobstore';
import { get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

const MB = 1e6;
const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);

/**
 * WAL files stay bounded during a run: the SQLite target's (its VUs'
 * overlapping transactions starve SQLite's own checkpoint; a VU truncates
 * it past 64 MB, driver-sqlite session.ts) and the job store's (a timed
 * TRUNCATE checkpoint). Sizes are asserted, never timings.
 */
describe('WAL files during a SQLite run', () => {
  let s: SledgeApp & { dataDir: string };
  afterAll(async () => {
    await s?.app.close();
    if (s) rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('the target WAL stays under 128 MB and the job store WAL under 8 MB through a 1-minute run at 2 VUs', async () => {
    s = await makeApp();
    const target = { engine: 'sqlite', file: 'wal.sqlite' };
    sqliteFromTemplate(s, target.file);
    const targetWal = join(s.dataDir, 'wal.sqlite-wal');
    const storeWal = join(s.dataDir, 'sledge.db-wal');
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 1 } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring'], 60_000);
    let maxTarget = 0;
    let maxStore = 0;
    const sampler = setInterval(() => {
      maxTarget = Math.max(maxTarget, size(targetWal));
      maxStore = Math.max(maxStore, size(storeWal));
    }, 100);
    const job = await waitJob(s, id, 180_000);
    clearInterval(sampler);
    expect(job.status).toBe('completed');
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=1000`);
    const lines = out.lines.map((l) => l.text);
    console.log(`[sqlite wal] ${job.summary}; target WAL max ${(maxTarget / MB).toFixed(1)} MB, job store WAL max ${(maxStore / MB).toFixed(2)} MB`);
    expect(lines.some((l) => l.startsWith('TEST RESULT'))).toBe(true);
    expect(maxTarget).toBeLessThan(128 * MB);
    expect(maxStore).toBeLessThan(2 * WAL_SIZE_LIMIT);
  });
});
