import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driver as duckdb } from '@sledge/driver-duckdb';
import type { Capabilities, Job, JobList, ScriptResult, TimingRow } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { get, makeApp, post, runJob, type SledgeApp } from './helpers.js';

/** An account update and its history row (pgbench's invariant between accounts and history holds after it). */
const ACCT = [
  '\\set aid random(1, 100000 * :scale)',
  '\\set delta random(-5000, 5000)',
  'BEGIN;',
  'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;',
  'SELECT abalance FROM pgbench_accounts WHERE aid = :aid \\gset',
  'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:client_id + 1, 1, :aid, :delta, CURRENT_TIMESTAMP);',
  'END;',
  '',
].join('\n');

const output = async (s: SledgeApp, id: string) => (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=5000`)).lines.map((l) => l.text);

/**
 * The script workload on DuckDB through REST (docs/script-workload.md,
 * docs/engines.md "DuckDB"): pgbench's init on a DuckDB file in the
 * server's data directory, runs with 2 VUs on the server's main thread (the
 * driver's mainThreadSessions: one instance of the file in the process),
 * per-script counters and latency, DuckDB's "Conflict on update" counted as
 * serialization errors and retried with maxTries, pgbench's invariant
 * after it, and what DuckDB refuses before anything is stored.
 */
describe('script workload on DuckDB', () => {
  let s: SledgeApp & { dataDir: string };
  const target = { engine: 'duckdb', file: 'pgbench.duckdb' };
  /** The file as the server resolved it (the build job's stored target). */
  let file = '';

  /** Read the file on this thread (the server's main thread: the same instance its sessions use), between jobs. */
  const query = async (sql: string): Promise<Record<string, unknown>[]> => {
    const p = await duckdb.openParamSession!({ engine: 'duckdb', file }, { name: 'test', log: () => undefined });
    try {
      return await p.run(sql, []);
    } finally {
      await p.close();
    }
  };
  const balances = async () => {
    const [b] = await query(sqlSet('duckdb', 'script').statement('check.sql', 'balances'));
    return Object.fromEntries(Object.entries(b!).map(([k, v]) => [k, Number(v)]));
  };

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('capabilities offer scripts on DuckDB, its sessions on the main thread', async () => {
    const d = (await get<Capabilities>(s, '/api/v1/capabilities')).engines.find((e) => e.engine === 'duckdb')!;
    expect(d.workloads).toContain('script');
    expect(d.features?.mainThreadSessions).toBe(true);
  });

  it("builds pgbench's tables at scale 1 (pgbench -i -s 1)", async () => {
    const job = await runJob(s, { type: 'build', workload: 'script', target, script: { scale: 1 } }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    file = (job as unknown as { config: { target: { file: string } } }).config.target.file;
    expect(file).toMatch(/pgbench\.duckdb$/);
    const [c] = await query('SELECT (SELECT count(*) FROM pgbench_branches) AS b, (SELECT count(*) FROM pgbench_tellers) AS t, (SELECT count(*) FROM pgbench_accounts) AS a, (SELECT count(*) FROM pgbench_history) AS h, (SELECT max(bid) FROM pgbench_accounts) AS maxbid');
    expect(c).toEqual({ b: 1, t: 10, a: 100000, h: 0, maxbid: 1 });
    // The keys are DuckDB primary keys.
    const keys = await query("SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY' ORDER BY table_name");
    expect(keys.map((k) => k['table_name'])).toEqual(['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers']);
  });

  it('runs two scripts with 2 VUs on the main thread: counts and latency per script, no error', async () => {
    const job = await runJob(s, { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only', weight: 1 }, { name: 'acct', text: ACCT, weight: 2 }], vus: 2, rampup: 0, duration: 0.05 } }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = job.result as unknown as ScriptResult;
    expect(r).toMatchObject({ scale: 1, activeVus: 2 });
    expect(r.scripts.map((x) => x.name)).toEqual(['select-only', 'acct']);
    for (const x of r.scripts) expect(x.transactions, x.name).toBeGreaterThan(0);
    expect(r.scripts[0]!.transactions + r.scripts[1]!.transactions).toBe(r.transactions);
    // Two VUs updating random accounts of 100,000 and appending to history: no conflict to speak of, and none counted as anything else.
    expect(Object.entries(r.errors?.byClass ?? {}).filter(([k, n]) => k !== 'serialization' && n > 0)).toEqual([]);
    expect(r.failed).toBe(r.scripts[0]!.errors + r.scripts[1]!.errors);
    const timing = await get<TimingRow[]>(s, `/api/v1/jobs/${job.id}/timing`);
    const rows = timing.filter((t) => t.vu === 0);
    expect(rows.map((t) => t.proc).sort()).toEqual(['acct', 'select-only']);
    for (const t of rows) expect(t.calls, t.proc).toBeGreaterThan(0);
    const out = await output(s, job.id);
    expect(out).toContain("2 VU(s) on the server's main thread (duckdb keeps one instance of the database in this process, and its sessions on that thread); 2 script(s): select-only@1, acct@2; scale 1");
    expect(out.filter((t) => /^Vuser [23]:FINISHED SUCCESS$/.test(t))).toHaveLength(2);
    // Every committed acct run wrote its account and its history row.
    const b = await balances();
    expect(b['accounts']).toBe(b['history']);
    const [h] = await query('SELECT count(*) AS n, count(DISTINCT tid) AS vus FROM pgbench_history');
    expect(Number(h!['n'])).toBeGreaterThanOrEqual(r.scripts[1]!.transactions);
    expect(h!['vus']).toBe(2);
  });

  it("tpcb-like with 2 VUs on one branch: DuckDB's conflicts are the script's serialization errors, retried with maxTries; the invariant holds", async () => {
    await runJob(s, { type: 'build', workload: 'script', target, script: { scale: 1 } }, 120_000);
    const job = await runJob(s, { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'tpcb-like' }], vus: 2, rampup: 0, duration: 0.05, maxTries: 3 } }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = job.result as unknown as ScriptResult;
    expect(r.transactions).toBeGreaterThan(0);
    const serialization = r.errors!.byClass['serialization'] ?? 0;
    expect(serialization).toBeGreaterThan(0);
    expect(r.errors!.total).toBe(serialization);
    expect(r.errors!.byOp['tpcb-like']).toEqual({ serialization, connection: 0, timeout: 0, constraint: 0, other: 0 });
    expect(r.retries!.byClass['serialization']).toBeGreaterThan(0);
    expect(r.failed).toBe(r.scripts[0]!.errors);
    const out = await output(s, job.id);
    expect(out.some((t) => /tpcb-like Procedure Error \(serialization TRANSACTIONCONTEXT\): TransactionContext Error: Conflict on update/.test(t))).toBe(true);
    // A conflict undoes its whole transaction: pgbench's invariant holds, and the check job says so.
    const b = await balances();
    expect([b['branches'], b['tellers'], b['history']]).toEqual([b['accounts'], b['accounts'], b['accounts']]);
    const check = await runJob(s, { type: 'check', workload: 'script', target }, 60_000);
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
    expect(check.summary).toMatch(/^pgbench invariant holds/);
  });

  it('refuses, before storing anything, a pipeline (no protocol to pipeline) and worker threads (the file stays on the main thread)', async () => {
    const before = (await get<JobList>(s, '/api/v1/jobs')).total;
    const pipe = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target, script: { scripts: [{ name: 'p', text: 'SELECT 1;\n\\startpipeline\nSELECT 2;\n\\endpipeline\n' }] } });
    expect(pipe.status).toBe(400);
    expect(pipe.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[0].text' });
    expect(String((pipe.body['error'] as { message: string }).message)).toMatch(/^p:2: \\startpipeline: duckdb has no pipeline mode/);
    const workers = await post(s, '/api/v1/jobs', { type: 'run', workload: 'script', target, script: { scripts: [{ builtin: 'select-only' }], workers: 2 } });
    expect(workers.status).toBe(400);
    expect(workers.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.workers' });
    expect(String((workers.body['error'] as { message: string }).message)).toMatch(/main thread/);
    expect((await get<JobList>(s, '/api/v1/jobs')).total).toBe(before);
    const jobs = (await get<JobList>(s, '/api/v1/jobs')).jobs as Job[];
    expect(jobs.every((j) => j.status === 'completed')).toBe(true);
  });
});
