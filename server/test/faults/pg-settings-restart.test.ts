import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobChanges, StatementStatsRecord } from '@sledge/protocol';
import { get, makeApp, runJob, type SledgeApp } from '../helpers.js';
import { dropPg, pgTarget, psql, restartPostgres } from './harness.js';

/**
 * What changed between two PostgreSQL runs when the change needs a server
 * restart (docs/compare.md): shared_buffers doubled, and pg_stat_statements
 * loaded (shared_preload_libraries) and created in the target's database,
 * between run A and run B. Compare names shared_buffers with both values;
 * runs B and C (same settings) have per-statement counters of their
 * measured windows and compare statement by statement. The server's
 * configuration is put back (ALTER SYSTEM RESET, restart) afterwards.
 * Solo tier: it restarts the shared PostgreSQL.
 */
const DB = 'sledge_sf_settings';
const target = pgTarget(DB, 'sf-settings-pw');
const run = { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.1, tcRefreshSec: 2 } };

describe('compare across a server restart: shared_buffers and per-statement counters', () => {
  let s: SledgeApp;
  let a: Job;
  let b: Job;
  let c: Job;
  /** shared_buffers before the change, in 8 kB pages, and shared_preload_libraries as the server had them. */
  let pages = 0;
  let preload = '';
  let changed = false;

  beforeAll(async () => {
    dropPg(DB);
    pages = Number(psql(`SELECT setting FROM pg_settings WHERE name = 'shared_buffers'`));
    preload = psql(`SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'`);
    s = await makeApp();
    const build = await runJob(s, { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } });
    expect(build.status, JSON.stringify(build.error)).toBe('completed');
    a = await runJob(s, run);

    changed = true;
    psql(`ALTER SYSTEM SET shared_buffers = '${pages * 2 * 8}kB'`);
    if (!/\bpg_stat_statements\b/.test(preload)) psql(`ALTER SYSTEM SET shared_preload_libraries = '${[preload, 'pg_stat_statements'].filter(Boolean).join(',')}'`);
    restartPostgres();
    psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', DB);
    b = await runJob(s, run);
    c = await runJob(s, run);
  }, 900_000);

  afterAll(async () => {
    await s?.app.close();
    if (changed) {
      psql('ALTER SYSTEM RESET shared_buffers');
      if (!/\bpg_stat_statements\b/.test(preload)) psql('ALTER SYSTEM RESET shared_preload_libraries');
      restartPostgres();
    }
    dropPg(DB);
  }, 300_000);

  it('names shared_buffers with both values (the server restarted between the runs)', async () => {
    expect([a.status, b.status, c.status]).toEqual(['completed', 'completed', 'completed']);
    const ch = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    expect(ch.settings.unavailable).toBeUndefined();
    const sb = ch.settings.differ.find((d) => d.name === 'shared_buffers');
    expect(sb).toMatchObject({ a: `${pages} 8kB`, b: `${pages * 2} 8kB`, sourceB: 'configuration file' });
    // A's session had no pg_stat_statements: the statements part says so instead of a list.
    expect(ch.statements.unavailable).toMatch(new RegExp(`^job ${a.id}: not available: pg_stat_statements not installed`));
  });

  it('records the statements of each measured window and compares them statement by statement', async () => {
    for (const job of [b, c]) {
      const st = await get<StatementStatsRecord>(s, `/api/v1/jobs/${job.id}/statements`);
      expect(st.unavailable, `job ${job.id}`).toBeUndefined();
      expect(st.source).toMatch(/pg_stat_statements/);
      // The five transactions' routines run in the window, each called at least once.
      expect(st.statements.length).toBeGreaterThan(0);
      expect(st.statements.some((x) => /neword/i.test(x.text) && x.calls > 0)).toBe(true);
      for (const x of st.statements) expect(x.meanMs).toBeCloseTo(x.calls > 0 ? x.totalMs / x.calls : 0, 3);
    }
    const ch = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${b.id},${c.id}`);
    expect(ch.statements.unavailable).toBeUndefined();
    expect(ch.settings.differ.map((d) => d.name)).not.toContain('shared_buffers');
    for (const m of ch.statements.moved) {
      expect(m.callsA + m.callsB).toBeGreaterThan(0);
      if (m.meanMsA !== null && m.meanMsB !== null && m.meanMsA > 0) expect(m.change).toBeCloseTo((m.meanMsB - m.meanMsA) / m.meanMsA, 3);
    }
  });
});
