import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, ScriptResult, VuStatus } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { get, makeApp, runJob, type SledgeApp } from './helpers.js';

/**
 * The script workload's native loop (docs/script-workload.md, "The native
 * loop") through REST on PostgreSQL, against the JavaScript loop of the same
 * server (vuLoop typescript): which loop ran and why in the job log,
 * pgbench's tpcb-like invariant after each, the same transactions drawn for
 * the same seed (each client's first statements equal), a failed statement
 * rolling its transaction back and counting one error in both, and a
 * script that reads the database staying in JavaScript.
 */
const DB = 'sledge_h38ns_srv';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'postgres', password: '', database: DB };
const pgReq = createRequire(createRequire(import.meta.url).resolve('@sledge/driver-postgresql'));

async function sql<T = Record<string, unknown>>(text: string, database = DB): Promise<T[]> {
  const { Client } = pgReq('pg') as typeof import('pg');
  const c = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

let auto: SledgeApp;
let js: SledgeApp;

beforeAll(async () => {
  await sql(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`, 'postgres');
  await sql(`CREATE DATABASE ${DB}`, 'postgres');
  auto = await makeApp();
  js = await makeApp({ vuLoop: 'typescript' });
}, 120_000);
afterAll(async () => {
  await auto?.app.close();
  await js?.app.close();
  await sql(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`, 'postgres');
}, 120_000);

const job = (s: SledgeApp, body: Record<string, unknown>): Promise<Job> => runJob(s, { workload: 'script', target, ...body }, 180_000);
const lines = async (s: SledgeApp, j: Job) => (await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${j.id}/output?limit=10000`)).lines.map((l) => l.text);
const loopLine = async (s: SledgeApp, j: Job) => (await lines(s, j)).find((l) => l.startsWith('Virtual users run in'));

async function invariant(): Promise<void> {
  const b = (await sql(sqlSet('postgresql', 'script').statement('check.sql', 'balances')))[0]!;
  const [accounts, branches, tellers, history] = ['accounts', 'branches', 'tellers', 'history'].map((k) => Number(b[k]));
  expect(accounts).toBe(history);
  expect(branches).toBe(history);
  expect(tellers).toBe(history);
}

describe('script workload: the native loop on PostgreSQL', () => {
  it("builds pgbench's tables at scale 1", async () => {
    const b = await job(auto, { type: 'build', script: { scale: 1 } });
    expect(b.status, JSON.stringify(b.error)).toBe('completed');
  });

  it('runs tpcb-like in the native loop (the log says so), every transaction counted, and the invariant holds; then in JavaScript on the same tables', async () => {
    const before = Number((await sql<{ n: string }>('SELECT count(*) AS n FROM pgbench_history'))[0]!.n);
    const r = await job(auto, { type: 'run', script: { scripts: [{ builtin: 'tpcb-like' }, { builtin: 'select-only' }], vus: 2, rampup: 0, duration: 0.08 } });
    expect(r.status, JSON.stringify(r.error)).toBe('completed');
    expect(await loopLine(auto, r)).toBe("Virtual users run in the native libpq loop (the worker thread evaluates each VU's scripts ahead)");
    const res = r.result as unknown as ScriptResult;
    expect(res.failed).toBe(0);
    for (const x of res.scripts) expect(x.transactions, x.name).toBeGreaterThan(0);
    // every committed tpcb-like of the whole run (window or not) wrote one history row: the VUs' counters say as many
    const vus = await get<VuStatus[]>(auto, `/api/v1/jobs/${r.id}/vus`);
    expect(vus.every((v) => v.state === 'finished')).toBe(true);
    const after = Number((await sql<{ n: string }>('SELECT count(*) AS n FROM pgbench_history'))[0]!.n);
    expect(after - before).toBeGreaterThanOrEqual(res.scripts[0]!.transactions);
    expect(vus.reduce((a, v) => a + v.commits, 0)).toBeGreaterThanOrEqual(after - before);
    await invariant();
    const check = await job(auto, { type: 'check' });
    expect(check.summary).toContain('pgbench invariant holds');

    const t = await job(js, { type: 'run', script: { scripts: [{ builtin: 'tpcb-like' }], vus: 2, rampup: 0, duration: 0.05 } });
    expect(t.status, JSON.stringify(t.error)).toBe('completed');
    expect(await loopLine(js, t)).toBe('Virtual users run in JavaScript (vuLoop is typescript)');
    expect((t.result as unknown as ScriptResult).failed).toBe(0);
    await invariant();
  });

  it('draws the same transactions as the JavaScript loop for the same seed: each client sends the same values in the same order', async () => {
    await sql('CREATE TABLE h38_par (id bigserial PRIMARY KEY, c int, r bigint, b bigint, loop text)');
    const text = (loop: string) => `\\set r random(1, 1000000000)\n\\set b random_exponential(1, 1000, 3.0)\nINSERT INTO h38_par (c, r, b, loop) VALUES (:client_id, :r, :b, '${loop}');\n`;
    const n = await job(auto, { type: 'run', seed: 4242, script: { scripts: [{ name: 'par', text: text('native') }], vus: 2, rampup: 0, duration: 0.04 } });
    const j = await job(js, { type: 'run', seed: 4242, script: { scripts: [{ name: 'par', text: text('js') }], vus: 2, rampup: 0, duration: 0.04 } });
    expect(n.status).toBe('completed');
    expect(j.status).toBe('completed');
    expect(await loopLine(auto, n)).toMatch(/native libpq loop/);
    for (const c of [0, 1]) {
      const seq = async (loop: string) => (await sql<{ r: string; b: string }>(`SELECT r, b FROM h38_par WHERE c = ${c} AND loop = '${loop}' ORDER BY id`)).map((x) => `${x.r}/${x.b}`);
      const a = await seq('native');
      const b = await seq('js');
      const k = Math.min(a.length, b.length);
      expect(k, `client ${c}`).toBeGreaterThan(20);
      expect(a.slice(0, k)).toEqual(b.slice(0, k));
    }
  });

  it('rolls back a transaction whose statement failed and counts one error, as the JavaScript loop does', async () => {
    await sql('CREATE TABLE h38_err (c int, loop text)');
    const text = (loop: string) => `BEGIN;\nINSERT INTO h38_err VALUES (:client_id, '${loop}');\nSELECT 1 / (:client_id::int - :client_id::int);\nEND;\n`;
    const outcome = async (s: SledgeApp, loop: string) => {
      const r = await job(s, { type: 'run', script: { scripts: [{ name: 'fails', text: text(loop) }], vus: 1, rampup: 0, duration: 0.03 } });
      expect(r.status, JSON.stringify(r.error)).toBe('completed');
      const res = r.result as unknown as ScriptResult;
      const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${r.id}/vus`);
      const log = await lines(s, r);
      return { res, errors: vus.reduce((a, v) => a + v.errors, 0), commits: vus.reduce((a, v) => a + v.commits, 0), log, loop: await loopLine(s, r) };
    };
    const n = await outcome(auto, 'native');
    const j = await outcome(js, 'js');
    expect(n.loop).toMatch(/native libpq loop/);
    for (const o of [n, j]) {
      expect(o.res.transactions).toBe(0);
      expect(o.res.failed).toBeGreaterThan(0);
      expect(o.commits).toBe(0);
      expect(o.errors).toBeGreaterThanOrEqual(o.res.failed);
      expect(o.log.find((l) => l.includes('Procedure Error')), o.loop).toBe('fails Procedure Error (other 22012): division by zero');
      // every error of the run is of class other, under the script's name
      expect(o.res.errors!.byClass['other']).toBe(o.res.errors!.total);
      expect(o.res.errors!.total).toBeGreaterThan(0);
      expect(o.res.errors!.byOp['fails']).toMatchObject({ other: o.res.errors!.total });
    }
    expect(Number((await sql<{ n: string }>('SELECT count(*) AS n FROM h38_err'))[0]!.n)).toBe(0);
  });

  it('keeps a script that reads the database into variables in JavaScript, and says why', async () => {
    const r = await job(auto, { type: 'run', script: { scripts: [{ builtin: 'tpcb-like' }, { name: 'reads', text: 'SELECT abalance AS bal FROM pgbench_accounts WHERE aid = 1 \\gset\n' }], vus: 1, rampup: 0, duration: 0.02 } });
    expect(r.status, JSON.stringify(r.error)).toBe('completed');
    expect(await loopLine(auto, r)).toBe('Virtual users run in JavaScript (reads:1: \\gset reads the database into variables: a script that reads the database into variables, sleeps or pipelines runs in JavaScript)');
    await invariant();
  });
});
