import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSettingsRecord, Job, JobChanges, StatementStatsRecord } from '@sledge/protocol';
import { get, makeApp, runJob, type SledgeApp } from './helpers.js';
import { dropPg, psql } from './faults/harness.js';

/**
 * What changed between two PostgreSQL runs (docs/compare.md): each run
 * records the settings its session sees; between the two runs a
 * database-level work_mem (ALTER DATABASE ... SET: no server restart, no
 * change for anyone else's database) changes, and /compare/changes names it
 * with both values and their sources.
 */
const NAME = 'settings_compare_pg';
const PASSWORD = 'settings-compare-pw';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: NAME, password: PASSWORD, database: NAME, superuser: 'postgres', superuserPassword: 'postgres' };
const run = { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.1, tcRefreshSec: 2 } };

describe('PostgreSQL: what changed between two runs', () => {
  let s: SledgeApp;
  let a: Job;
  let b: Job;
  /** work_mem as a new session of the target's database sees it before the change (the server's default), in kB. */
  let before: string;

  beforeAll(async () => {
    dropPg(NAME);
    s = await makeApp();
    const build = await runJob(s, { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } });
    expect(build.status, JSON.stringify(build.error)).toBe('completed');
    before = psql(`SELECT setting FROM pg_settings WHERE name = 'work_mem'`, NAME);
    if (before === '8192') throw new Error('the server default work_mem is already 8MB: this test needs another value to change to');
    a = await runJob(s, run);
    psql(`ALTER DATABASE ${NAME} SET work_mem = '8MB'`);
    b = await runJob(s, run);
  }, 600_000);

  afterAll(async () => {
    await s?.app.close();
    dropPg(NAME);
  });

  it('each run records the settings its session sees, the database-level work_mem with its source', async () => {
    expect(a.status, JSON.stringify(a.error)).toBe('completed');
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
    const sa = await get<EngineSettingsRecord>(s, `/api/v1/jobs/${a.id}/settings`);
    const sb = await get<EngineSettingsRecord>(s, `/api/v1/jobs/${b.id}/settings`);
    expect(sa.unavailable).toBeUndefined();
    expect(sa.settings.length).toBeGreaterThan(200);
    expect(sa.settings.find((x) => x.name === 'work_mem')).toEqual({ name: 'work_mem', value: before, unit: 'kB', source: expect.not.stringMatching(/^database$/) as unknown as string });
    expect(sb.settings.find((x) => x.name === 'work_mem')).toEqual({ name: 'work_mem', value: '8192', unit: 'kB', source: 'database' });
    // The query session's own settings are reset first: the run's VUs never set a statement timeout.
    expect(sb.settings.find((x) => x.name === 'statement_timeout')?.source).not.toBe('session');
    // Settings that can hold a secret are withheld by name; no password anywhere in what is stored.
    // (The target's user is no superuser: pg_settings hides primary_conninfo and ssl_passphrase_command from it already;
    // what the name rule withholds on top is conservative: password_encryption names a method.)
    expect(sa.withheld).toEqual(expect.arrayContaining(['password_encryption']));
    for (const w of sa.withheld) expect(sa.settings.some((x) => x.name === w)).toBe(false);
    expect(sa.settings.some((x) => /conninfo|passphrase|password/i.test(x.name))).toBe(false);
    expect(JSON.stringify(sa)).not.toContain(PASSWORD);
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${b.id}/output?limit=5000`);
    expect(out.lines.some((l) => /^Engine settings: recorded \d+; withheld \(can hold a secret\): .*password_encryption/.test(l.text))).toBe(true);
  });

  it('compare names work_mem with both values; the other settings are the same', async () => {
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    expect(c.settings.unavailable).toBeUndefined();
    expect(c.settings.compared).toBeGreaterThan(200);
    const wm = c.settings.differ.find((d) => d.name === 'work_mem');
    expect(wm).toMatchObject({ name: 'work_mem', a: `${before} kB`, b: '8192 kB', sourceB: 'database' });
    // Nothing else the runs' sessions see changed (application_name is the reader's own and the same in both).
    expect(c.settings.differ.map((d) => d.name)).toEqual(['work_mem']);
  });

  it('says why there are no statement statistics when pg_stat_statements is not installed', async () => {
    const installed = psql(`SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'`, NAME) === '1';
    const st = await get<StatementStatsRecord>(s, `/api/v1/jobs/${a.id}/statements`);
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    if (installed) {
      expect(st.unavailable ?? '').not.toMatch(/not installed/);
    } else {
      expect(st.unavailable).toMatch(/^not available: pg_stat_statements not installed/);
      expect(c.statements.unavailable).toBe(`job ${a.id}: ${st.unavailable}`);
      expect(c.statements.moved).toEqual([]);
    }
  });

  it('says so when pg_stat_statements is created in the database but its library is not loaded', async () => {
    const preloaded = psql(`SELECT count(*) FROM pg_settings WHERE name = 'shared_preload_libraries' AND setting LIKE '%pg_stat_statements%'`) === '1';
    // Only in this test's own database (dropped with it); nothing server-wide changes.
    psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', NAME);
    try {
      const c = await runJob(s, run);
      expect(c.status, JSON.stringify(c.error)).toBe('completed');
      const st = await get<StatementStatsRecord>(s, `/api/v1/jobs/${c.id}/statements`);
      if (preloaded) {
        expect(st.unavailable).toBeUndefined();
        expect(st.statements.length).toBeGreaterThan(0);
      } else expect(st.unavailable).toMatch(/^not available: the statement counters cannot be read: pg_stat_statements must be loaded via shared_preload_libraries/);
    } finally {
      psql('DROP EXTENSION IF EXISTS pg_stat_statements', NAME);
    }
  });

  it('gives no verdict without a measured spread, and says what would give one', async () => {
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    expect(c.verdict.metric).toBe('nopm');
    expect(c.verdict.a).toBe(a.result!.nopm);
    expect(c.verdict.b).toBe(b.result!.nopm);
    // Both runs are in one profile at 1 VU: each is the other's only repeat, and a run is never its comparand's noise.
    expect(c.verdict.verdict).toBe('unknown');
    expect(c.verdict.spread).toEqual([]);
    expect(c.verdict.message).toMatch(/moved [+-][0-9.]+%; neither run has a measured spread to read it against \(repeat a run/);
  });

  it('refuses bad input with a typed error that says what to give', async () => {
    const one = await s.app.inject({ method: 'GET', url: `/api/v1/compare/changes?jobs=${a.id}` });
    expect(one.statusCode).toBe(400);
    expect(JSON.parse(one.body).error).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'jobs' });
    const missing = await s.app.inject({ method: 'GET', url: `/api/v1/compare/changes?jobs=${a.id},ffffffffffffffffffffffff` });
    expect(missing.statusCode).toBe(404);
    const buildJob = (await get<{ jobs: Job[] }>(s, '/api/v1/jobs?type=build')).jobs[0]!;
    const notRun = await s.app.inject({ method: 'GET', url: `/api/v1/compare/changes?jobs=${a.id},${buildJob.id}` });
    expect(notRun.statusCode).toBe(400);
    expect(JSON.parse(notRun.body).error.message).toMatch(/is a build job: compare two run jobs/);
    expect(await get(s, `/api/v1/jobs/${buildJob.id}/settings`)).toBeNull();
  });
});
