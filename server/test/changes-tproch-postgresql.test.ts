import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobChanges } from '@sledge/protocol';
import { get, makeApp, runJob, type SledgeApp } from './helpers.js';
import { dropPg, psql } from './faults/harness.js';

/**
 * TPROC-H plans that changed shape between two PostgreSQL power runs
 * (docs/compare.md): between them the test's own database turns hash joins
 * off (ALTER DATABASE ... SET enable_hashjoin = off: nothing server-wide), so
 * compare names the setting and lists the queries whose stored plan lost its
 * hash join.
 */
const NAME = 'settings_compare_tpch';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: NAME, password: 'settings-compare-tpch-pw', database: NAME, superuser: 'postgres', superuserPassword: 'postgres' };
const power = { workload: 'tproch', type: 'run', target, tproch: { scaleFactor: 0.01, refresh: false, dop: 1 } };

describe('PostgreSQL TPROC-H: plans that changed shape', () => {
  let s: SledgeApp;
  let a: Job;
  let b: Job;

  beforeAll(async () => {
    dropPg(NAME);
    s = await makeApp();
    const build = await runJob(s, { workload: 'tproch', type: 'build', target, tproch: { scaleFactor: 0.01, buildVus: 1 } });
    expect(build.status, JSON.stringify(build.error)).toBe('completed');
    a = await runJob(s, power);
    psql(`ALTER DATABASE ${NAME} SET enable_hashjoin = off`);
    b = await runJob(s, power);
  }, 600_000);

  afterAll(async () => {
    await s?.app.close();
    dropPg(NAME);
  });

  it('compare names enable_hashjoin and the queries whose plan lost its hash join', async () => {
    expect(a.status, JSON.stringify(a.error)).toBe('completed');
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a.id},${b.id}`);
    expect(c.settings.differ).toContainEqual({ name: 'enable_hashjoin', a: 'on', b: 'off', sourceA: 'default', sourceB: 'database' });
    expect(c.plans.compared).toBe(22);
    const lost = c.plans.changed.filter((p) => /Hash Join/.test(p.planA) && !/Hash Join/.test(p.planB));
    expect(lost.length).toBeGreaterThan(0);
    // Every listed query really changed shape: none differs only in costs, estimates or its parameters (each run draws its own).
    const bare = (plan: string) => plan.replace(/\(cost=[^)]*\)/g, '').replace(/'[^']*'/g, '').replace(/[0-9.]+/g, '');
    for (const p of c.plans.changed) expect(bare(p.planA), `query ${p.query}`).not.toBe(bare(p.planB));
    expect(c.verdict.metric).toBe('geomean');
  });
});
