import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSettingsRecord, Job, JobChanges } from '@sledge/protocol';
import { makeApp, get, runJob, type SledgeApp } from './helpers.js';
import { copyMariadbTprocc } from './live-template.js';

/**
 * What changed between two MariaDB runs (docs/compare.md). Between the runs
 * a harmless global changes: long_query_time (it only decides what the slow
 * query log keeps, and the log is off: the test checks that first), restored
 * at once after the second run starts and in afterAll. Run it under the
 * shared database lock (flock /tmp/sledge-db.lock) like every live test.
 */
const DB = 'settings_compare_maria';
const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB };
const run = { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.1, tcRefreshSec: 2 } };

function mysql(sql: string): string {
  const r = spawnSync('mysql', ['-h', '127.0.0.1', '-u', 'root', '-N', '-B', '-e', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mysql: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

describe('MariaDB: what changed between two runs', () => {
  let s: SledgeApp;
  let a: Job;
  let b: Job;
  let saved = '';
  let changed = '';

  beforeAll(async () => {
    if (mysql('SELECT @@slow_query_log') !== '0') throw new Error('the slow query log is on: changing long_query_time would change what it keeps; this test needs it off');
    saved = mysql('SELECT @@global.long_query_time');
    changed = Number(saved) === 11 ? '12.000000' : '11.000000';
    s = await makeApp();
    mysql(`DROP DATABASE IF EXISTS ${DB}`);
    // The schema is a copy of the run's prebuilt 1-warehouse template (live-template.ts): the build is not this file's subject.
    await copyMariadbTprocc(DB);
    a = await runJob(s, run);
    mysql(`SET GLOBAL long_query_time = ${changed}`);
    try {
      b = await runJob(s, run);
    } finally {
      mysql(`SET GLOBAL long_query_time = ${saved}`);
    }
  }, 600_000);

  afterAll(async () => {
    if (saved) mysql(`SET GLOBAL long_query_time = ${saved}`);
    await s?.app.close();
    mysql(`DROP DATABASE IF EXISTS ${DB}`);
  });

  it('each run records SHOW GLOBAL VARIABLES; compare names long_query_time with both values', async () => {
    expect(a.status, JSON.stringify(a.error)).toBe('completed');
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
    const sa = await get<EngineSettingsRecord>(s, `/api/v1/jobs/${a.id}/settings`);
    expect(sa.unavailable).toBeUndefined();
    expect(sa.settings.length).toBeGreaterThan(300);
    expect(sa.settings.find((x) => x.name === 'LONG_QUERY_TIME')).toEqual({ name: 'LONG_QUERY_TIME', value: saved, source: 'global' });
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    expect(c.settings.differ).toContainEqual({ name: 'LONG_QUERY_TIME', a: saved, b: changed, sourceA: 'global', sourceB: 'global' });
  });

  it('says why there are no statement statistics when performance_schema is off', async () => {
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    if (mysql('SELECT @@performance_schema') === '0') expect(c.statements.unavailable).toBe(`job ${a.id}: not available: performance_schema is OFF (performance_schema = ON in the server configuration; needs a restart)`);
    else expect(c.statements.unavailable ?? '').not.toMatch(/performance_schema is OFF/);
  });
});
