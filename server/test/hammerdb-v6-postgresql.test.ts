import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { TproccArtifact } from '../dist/artifact/schema.js';
import { get, hdb, jobs, waitComplete } from './hammerdb-v6-api.js';
import { makeApp, waitJob, type SledgeApp } from './helpers.js';
import { copyPgTprocc } from './live-template.js';

/** HammerDB v6.0's JSON result artifact of a timed PostgreSQL run through the HammerDB API (the SQLite and TPROC-H forms: hammerdb-v6.test.ts). */

describe('PostgreSQL (database hdb_v6_pg): the artifact is the job\'s own series, and holds no secret', () => {
  let s: SledgeApp;
  const pw = 'V6-artifact-Secret-9';
  const diset = (dict: string, key: string, value: string) => hdb(s, 'POST', '/diset', ` "dict": "${dict}", "key": "${key}", "value": "${value}" `);
  const jobOf = async (verb: string) => {
    const r = (await (await hdb(s, 'POST', `/${verb}`, '')).json()) as { success?: { message: string }; error?: { message: string } };
    if (!r.success) throw new Error(`${verb}: ${JSON.stringify(r)}`);
    const id = /JOBID=([0-9A-F]{24})/.exec(r.success.message)![1]!;
    await waitComplete(s, id);
    await waitJob(s, id);
    await hdb(s, 'POST', '/vudestroy', '');
    return id;
  };
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('runs 2 VUs for 12 s; tcount points, response times and figures in the artifact are the job\'s', async () => {
    await hdb(s, 'POST', '/dbset', ' "db": "pg" ');
    for (const [d, k, v] of [
      ['connection', 'pg_host', '127.0.0.1'],
      ['connection', 'pg_sslmode', 'disable'],
      ['tpcc', 'pg_user', 'hdb_v6_pg'],
      ['tpcc', 'pg_pass', pw],
      ['tpcc', 'pg_dbase', 'hdb_v6_pg'],
      ['tpcc', 'pg_rampup', '0'],
      ['tpcc', 'pg_duration', '0.2'],
      ['tpcc', 'pg_timeprofile', 'true'],
    ]) {
      await diset(d!, k!, v!);
    }
    // The schema is a copy of the live tier's prebuilt one (live-template.ts): this test's subject is the run's artifact, not the build.
    await copyPgTprocc({ database: 'hdb_v6_pg', user: 'hdb_v6_pg', password: pw });
    await hdb(s, 'POST', '/vuset', ' "vu": "2" ');
    await hdb(s, 'POST', '/tcset', ' "refreshrate": "2" ');
    await hdb(s, 'POST', '/loadscript', '');
    const run = await jobOf('vurun');
    const job = s.store.getJob(run)!;
    expect(job.status).toBe('completed');
    const text = (await hdb(s, 'GET', `/api/v1/jobs/${run}/artifact`)).body;
    expect(text).not.toContain(pw);
    const a = JSON.parse(text) as TproccArtifact;
    expect([...Value.Errors(TproccArtifact, a)].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
    expect(a.job).toMatchObject({ database: 'PostgreSQL', database_display: 'PostgreSQL', release: expect.stringMatching(/^\d+/) });
    const res = job.result as { nopm: number; tpm: number };
    expect([a.result.nopm, a.result.tpm]).toEqual([res.nopm, res.tpm]);
    // The transaction counter series: every engine sample of the job, in order, with its value.
    const samples = s.store.getTcount(run).engine;
    // 12 s at a 2 s refresh: 6-7 samples (9 s gave 5, too close to this bound).
    console.log(`[hammerdb-v6 pg] ${samples.length} engine samples at a 2 s refresh`);
    expect(samples.length).toBeGreaterThan(3);
    expect(a.transaction_count.series[0]!.name).toBe('PostgreSQL tpm');
    expect(a.transaction_count.series[0]!.points.map((p) => p.value)).toEqual(samples.map((x) => Math.round(x.tpm)));
    // Response times: the job's summary rows, by ratio.
    const rows = s.store.getTimings(run, { vu: 0 }).filter((r) => r.vu === 0).sort((x, y) => y.ratioPct - x.ratioPct);
    expect(a.response_times.rows.map((r) => [r.name, r.calls, r.p99_ms])).toEqual(rows.map((r) => [r.proc, r.calls, Math.round(r.p99Ms * 1000) / 1000]));
    // No secret in the CLI forms either.
    for (const form of ['dict', 'result', 'system']) expect(JSON.stringify(await jobs(s, run, form))).not.toContain(pw);
    expect(JSON.stringify(await get(s, `/jobs?jobid=${run}&dict&raw=1`))).not.toContain(pw);
    await jobOf('deleteschema');
  }, 300_000);
});
