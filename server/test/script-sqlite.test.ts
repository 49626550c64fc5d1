import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobList, ScriptResult, TimingRow } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { get, makeApp, post, runJob, waitJob, type SledgeApp } from './helpers.js';

// better-sqlite3 is the SQLite driver's dependency: resolve it from there.
const require = createRequire(createRequire(import.meta.url).resolve('@sledge/driver-sqlite'));
const Database = require('better-sqlite3') as new (file: string) => {
  exec(sql: string): void;
  prepare(sql: string): { run(...a: unknown[]): unknown; get(...a: unknown[]): unknown };
  close(): void;
};

const sql = sqlSet('sqlite', 'script');

/** A script of our own using every meta-command the engines run (fixtures/script/own.sql). */
const OWN = readFileSync(new URL('./fixtures/script/own.sql', import.meta.url), 'utf8');

describe('script workload on SQLite (pgbench scripts through REST)', () => {
  let s: SledgeApp & { dataDir: string };
  let file: string;
  const target = { engine: 'sqlite', file: 'pgbench.sqlite' };

  beforeAll(async () => {
    s = await makeApp();
    file = join(s.dataDir, 'pgbench.sqlite');
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('is offered where the driver opens parameter sessions (capabilities)', async () => {
    const caps = await get<{ engines: { engine: string; workloads: string[] }[] }>(s, '/api/v1/capabilities');
    const by = Object.fromEntries(caps.engines.map((e) => [e.engine, e.workloads]));
    for (const e of ['sqlite', 'postgresql', 'mysql', 'mariadb', 'duckdb']) expect(by[e], e).toContain('script');
    expect(by['mssql']).not.toContain('script');
  });

  it("builds pgbench's tables at scale 1 (pgbench -i -s 1)", async () => {
    const job = await runJob(s, { type: 'build', workload: 'script', target, script: { scale: 1 } }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const db = new Database(file);
    const count = (t: string) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    expect([count('pgbench_branches'), count('pgbench_tellers'), count('pgbench_accounts'), count('pgbench_history')]).toEqual([1, 10, 100000, 0]);
    expect(db.prepare('SELECT min(bid) AS lo, max(bid) AS hi, sum(abalance) AS s FROM pgbench_accounts').get()).toEqual({ lo: 1, hi: 1, s: 0 });
    db.close();
  });

  it('runs tpcb-like and a script of its own with 2 VUs: per-script counters, latency, invariant', async () => {
    const r = await post(s, '/api/v1/jobs', {
      type: 'run',
      workload: 'script',
      target,
      script: { scripts: [{ builtin: 'tpcb-like', weight: 3 }, { name: 'own', text: OWN, weight: 1 }], vus: 2, rampup: 0, duration: 0.08 },
      thresholds: ['tps>1', 'error_rate<1%'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id), 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const result = job.result as unknown as ScriptResult;
    expect(result.scale).toBe(1);
    expect(result.activeVus).toBe(2);
    // Thresholds on the result's figures gate it as for any workload.
    expect(job.passed).toBe(true);
    expect(result.transactions).toBeGreaterThan(0);
    expect(result.tps).toBeGreaterThan(0);
    expect(result.failed).toBe(0);
    expect(result.scripts.map((x) => x.name)).toEqual(['tpcb-like', 'own']);
    for (const x of result.scripts) expect(x.transactions, x.name).toBeGreaterThan(0);
    expect(result.scripts[0]!.transactions + result.scripts[1]!.transactions).toBe(result.transactions);
    expect(result.line).toMatch(/^TEST RESULT : System achieved [\d.]+ TPS \(\d+ transactions, 0 failed in [\d.]+ s, 2 VU\)$/);
    // Latency per script (the time profile's summary rows).
    const timing = await get<TimingRow[]>(s, `/api/v1/jobs/${job.id}/timing`);
    expect(timing.filter((t) => t.vu === 0).map((t) => t.proc).sort()).toEqual(['own', 'tpcb-like']);
    for (const t of timing.filter((x) => x.vu === 0)) expect(t.calls).toBeGreaterThan(0);
    // The scripts are stored with the job: the built-in's text filled in.
    const cfg = (job as unknown as { config: { script: { scripts: { name: string; text: string }[] } } }).config;
    expect(cfg.script.scripts[0]!.text).toContain('UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;');
    expect(cfg.script.scripts[1]!.text).toBe(OWN);
    // pgbench's invariant: every delta went to one account, teller and branch and into history.
    const db = new Database(file);
    const b = db.prepare(sql.statement('check.sql', 'balances')).get() as Record<string, number>;
    const n = db.prepare('SELECT count(*) AS n FROM pgbench_history').get() as { n: number };
    db.close();
    expect(n.n).toBeGreaterThanOrEqual(result.scripts[0]!.transactions);
    expect(b['accounts']).toBe(b['history']);
    expect(b['branches']).toBe(b['history']);
    expect(b['tellers']).toBe(b['history']);
    expect(b['history']).not.toBe(0);
    // The check job says the same.
    const check = await runJob(s, { type: 'check', workload: 'script', target }, 60_000);
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
    expect(check.summary).toBe(`pgbench invariant holds (sum(abalance) ${b['accounts']}, sum(bbalance) ${b['branches']}, sum(tbalance) ${b['tellers']}, sum(delta) ${b['history']})`);
  });

  it('refuses bad scripts before storing anything, naming the field, line and column', async () => {
    const before = (await get<JobList>(s, '/api/v1/jobs')).total;
    const bad = async (script: unknown) => post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target, script });
    const syntax = await bad({ scripts: [{ name: 'a', text: 'SELECT 1;\n\\set x random(1,)\n' }] });
    expect(syntax.status).toBe(400);
    expect(syntax.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[0].text', message: 'a:2:17: unexpected ")"' });
    const shell = await bad({ scripts: [{ builtin: 'select-only' }, { name: 'b', text: '\\setshell x echo 1\n' }] });
    expect(shell.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[1].text' });
    expect(String((shell.body['error'] as { message: string }).message)).toMatch(/^b:1:1: \\setshell runs a shell command/);
    const pipeline = await bad({ scripts: [{ name: 'p', text: 'SELECT 1;\n\\startpipeline\nSELECT 2;\n\\endpipeline\n' }] });
    expect(pipeline.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[0].text' });
    expect(String((pipeline.body['error'] as { message: string }).message)).toMatch(/^p:2: \\startpipeline: sqlite has no pipeline mode in its protocol/);
    const both = await bad({ scripts: [{ text: 'SELECT 1;', builtin: 'tpcb-like' }] });
    expect(both.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[0]' });
    const dup = await bad({ scripts: [{ builtin: 'select-only' }, { builtin: 'select-only' }] });
    expect(dup.body['error']).toMatchObject({ field: 'script.scripts[1].name' });
    const zero = await bad({ scripts: [{ builtin: 'select-only', weight: 0 }] });
    expect(zero.body['error']).toMatchObject({ field: 'script.scripts' });
    const unknown = await bad({ scripts: [{ builtin: 'tpcc' }] });
    expect(unknown.status).toBe(400);
    expect(String(JSON.stringify(unknown.body))).toContain('script.scripts');
    // An engine whose driver has no parameter session (SQL Server) is refused before connecting, naming the engine field.
    const mssql = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target: { engine: 'mssql' }, script: { scripts: [{ builtin: 'select-only' }] } });
    expect(mssql.status).toBe(424);
    expect(mssql.body['error']).toMatchObject({ code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'target.engine' });
    expect((await get<JobList>(s, '/api/v1/jobs')).total).toBe(before);
  });

  it('a script error at run time is counted against its script, the run goes on', async () => {
    const job: Job = await waitJob(
      s,
      String(
        (
          await post(s, '/api/v1/jobs', {
            type: 'run',
            workload: 'script',
            target,
            script: { scripts: [{ builtin: 'select-only', weight: 1 }, { name: 'broken', text: 'SELECT * FROM no_such_table WHERE x = :client_id;\n', weight: 1 }], vus: 1, duration: 0.05 },
            // Thresholds name the scripts: latency and error rate of each one.
            thresholds: ['error_rate(select-only)<1%', 'p99(select-only)<60s', 'error_rate(broken)<1%'],
          })
        ).body.id,
      ),
      120_000,
    );
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const result = job.result as unknown as ScriptResult;
    const [ok, broken] = result.scripts;
    expect(ok!.transactions).toBeGreaterThan(0);
    expect(ok!.errors).toBe(0);
    expect(broken!.transactions).toBe(0);
    expect(broken!.errors).toBeGreaterThan(0);
    expect(result.failed).toBe(broken!.errors);
    expect(job.passed).toBe(false);
    expect(job.thresholdResults?.map((t) => [t.metric, t.ok])).toEqual([['error_rate(select-only)', true], ['p99(select-only)', true], ['error_rate(broken)', false]]);
    expect(job.thresholdResults?.[0]?.actual).toBe(0);
    expect(job.thresholdResults?.[2]?.actual).toBe(100);
    expect(job.thresholdResults?.[2]?.message).toBe('error_rate(broken) 100% is not < 1%: fail');
  });

  it('refuses a threshold naming a script the job does not have, nothing stored', async () => {
    const before = (await get<JobList>(s, '/api/v1/jobs')).total;
    const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only' }] }, thresholds: ['p95(tpcb-like)<10ms'] });
    expect(r.status).toBe(400);
    expect(r.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'thresholds[0]', message: 'thresholds[0] "p95(tpcb-like)<10ms": "tpcb-like" is not a Script (pgbench) operation: use one of select-only' });
    expect((await get<JobList>(s, '/api/v1/jobs')).total).toBe(before);
  });

  it('runs step loads: each step its VUs, TPS and latency per script', async () => {
    const job = await runJob(s, { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only' }], rampup: 0, duration: 0.1, steps: [{ startAfterMin: 0, durationMin: 0.05, vus: 1 }, { startAfterMin: 0.05, durationMin: 0.05, vus: 2 }] } }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const steps = (job.result as unknown as ScriptResult).steps!;
    expect(steps.map((x) => x.vus)).toEqual([1, 2]);
    for (const x of steps) {
      expect(x.transactions, `step ${x.index}`).toBeGreaterThan(0);
      expect(x.tps, `step ${x.index}`).toBeGreaterThan(0);
      expect(x.latency['select-only']?.p95, `step ${x.index}`).toBeGreaterThan(0);
    }
    const out = (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=1000`)).lines.map((l) => l.text);
    expect(out.some((t) => /^Step 2 complete: 2 VU, [\d.]+ TPS \(\d+ transactions in [\d.]+ s\)$/.test(t))).toBe(true);
    // The script workload has no engine transaction counter: the monitor stores no engine sample and says no counter error.
    expect(out.filter((t) => t.includes('Transaction counter error'))).toEqual([]);
    // A schedule longer than the run is refused up front.
    const bad = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only' }], rampup: 0, duration: 0.1, steps: [{ startAfterMin: 0, durationMin: 1, vus: 1 }] } });
    expect(bad.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.steps' });
  });

  it('runs at an arrival rate: transactions on a schedule, every scheduled one run or dropped', async () => {
    const job = await runJob(s, { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only' }], rampup: 0, duration: 0.1, arrival: { rate: 20, maxSessions: 2 } } }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = job.result as unknown as ScriptResult;
    const a = r.arrival!;
    expect(a).toMatchObject({ maxSessions: 2, latencyFromIntended: true });
    expect(a.targetRate).toBe(20);
    expect(a.scheduled).toBeGreaterThan(0);
    expect(r.transactions).toBeGreaterThan(0);
    // Every scheduled arrival in the window either ran or was dropped (give or take those in flight at the edges).
    expect(Math.abs(a.scheduled - a.dropped - r.transactions)).toBeLessThanOrEqual(2);
    const both = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only' }], duration: 0.1, arrival: { rate: 5 }, steps: [{ startAfterMin: 0, durationMin: 0.05, vus: 1 }] } });
    expect(both.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.arrival' });
  });
});
