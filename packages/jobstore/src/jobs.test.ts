import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SledgeError, isTproccResult, type TproccResult } from '@sledge/protocol';
import { JOB_TABLES, JobStore } from './store.js';
import { newJobId } from './ids.js';
import { jobInput, sleep, tempStore } from './test/helpers.js';

const result = (nopm: number, activeVus: number): TproccResult => ({
  nopm,
  tpm: nopm * 2 + 1,
  activeVus,
  tpmSource: 'engine',
  line: `TEST RESULT : System achieved ${nopm} NOPM from ${nopm * 2 + 1} PostgreSQL TPM`,
  measuredSeconds: 300,
  clientCpuMsPer1000Tx: 12.5,
  transactions: 123456,
});

function codeOf(fn: () => unknown): { code: string; field: string | undefined } {
  try {
    fn();
  } catch (e) {
    if (SledgeError.is(e)) return { code: e.code, field: e.field };
    throw e;
  }
  throw new Error('expected a SledgeError');
}

describe('jobs', () => {
  it('creates a queued job with every field round-tripping', () => {
    const { store } = tempStore();
    const config = { target: { engine: 'postgresql', host: 'db', port: 5432, password: '********' }, tprocc: { warehouses: 10, mix: { neworder: 10 }, nested: [1, 'two', { three: null }], f: 0.1 } };
    const id = newJobId();
    const job = store.createJob(jobInput({ id, config, label: 'nightly', seed: 4294967295, profileId: 3 }));
    expect(job).toEqual({
      id,
      type: 'run',
      workload: 'tprocc',
      engine: 'postgresql',
      status: 'queued',
      label: 'nightly',
      profileId: 3,
      createdAt: job.createdAt,
      config,
      seed: 4294967295,
      clientVersion: '0.1.0',
    });
    expect(new Date(job.createdAt).toISOString()).toBe(job.createdAt);
    expect(store.getJob(id)).toEqual(job);
    expect(store.getJob(newJobId())).toBeUndefined();
  });

  it('makes an id when none is given and refuses a duplicate or malformed id', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput());
    expect(job.id).toMatch(/^[0-9A-F]{24}$/);
    expect(codeOf(() => store.createJob(jobInput({ id: job.id })))).toEqual({ code: 'SLEDGE_E_CONFLICT', field: 'id' });
    expect(codeOf(() => store.createJob(jobInput({ id: 'abc' })))).toEqual({ code: 'SLEDGE_E_VALIDATION', field: 'id' });
  });

  it('validates the create input field by field and stores nothing on error', () => {
    const { store } = tempStore();
    const bad: [Record<string, unknown>, string][] = [
      [{ type: 'bench' }, 'type'],
      [{ workload: 'tpcx' }, 'workload'],
      [{ engine: 'informix' }, 'engine'],
      [{ seed: -1 }, 'seed'],
      [{ seed: 1.5 }, 'seed'],
      [{ profileId: -2 }, 'profileId'],
      [{ clientVersion: '' }, 'clientVersion'],
      [{ status: 'running' }, 'status'],
      [{ label: 7 }, 'label'],
    ];
    for (const [over, field] of bad) {
      expect(codeOf(() => store.createJob({ ...jobInput(), ...over } as Parameters<JobStore['createJob']>[0]))).toEqual({ code: 'SLEDGE_E_VALIDATION', field });
    }
    expect(store.listJobs({}).total).toBe(0);
  });

  it('redacts secrets that reach it in a config anyway', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput({ config: { target: { engine: 'postgresql', password: 'hunter2', superuserPassword: 'root!', url: 'postgres://u:hunter2@h/db' } } }));
    const text = JSON.stringify(store.getJob(job.id));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('root!');
    expect(store.getJob(job.id)?.config).toEqual({ target: { engine: 'postgresql', password: '********', superuserPassword: '********', url: 'postgres://u:********@h/db' } });
  });

  it('updates status, times, result, error, engine version and summary', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput());
    const startedAt = new Date().toISOString();
    store.updateJob(job.id, { status: 'connecting', startedAt });
    store.updateJob(job.id, { status: 'measuring', engineVersion: 'PostgreSQL 15.4' });
    const r = result(12345, 8);
    const endedAt = new Date(Date.now() + 1000).toISOString();
    const done = store.updateJob(job.id, { status: 'completed', endedAt, result: r, summary: '12345 NOPM from 24691 PostgreSQL TPM' });
    expect(done).toEqual({ ...job, status: 'completed', startedAt, endedAt, engineVersion: 'PostgreSQL 15.4', result: r, summary: '12345 NOPM from 24691 PostgreSQL TPM' });
    expect(store.getJob(job.id)).toEqual(done);
    const failed = store.updateJob(job.id, { status: 'failed', error: { code: 'SLEDGE_E_DB', message: 'deadlock detected', field: 'target' } });
    expect(failed.error).toEqual({ code: 'SLEDGE_E_DB', message: 'deadlock detected', field: 'target' });
    expect(failed.result).toEqual(r);
    // A second result replaces the first.
    const replaced = store.updateJob(job.id, { result: result(7, 1) }).result;
    expect(isTproccResult(replaced) && replaced.nopm).toBe(7);
  });

  it('rejects updates of unknown jobs and bad patches', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput());
    expect(codeOf(() => store.updateJob(newJobId(), { status: 'running' }))).toEqual({ code: 'SLEDGE_E_NOT_FOUND', field: 'id' });
    expect(codeOf(() => store.updateJob(job.id, { status: 'sleeping' as 'running' }))).toEqual({ code: 'SLEDGE_E_VALIDATION', field: 'status' });
    expect(codeOf(() => store.updateJob(job.id, { startedAt: 'yesterday' }))).toEqual({ code: 'SLEDGE_E_VALIDATION', field: 'startedAt' });
    expect(codeOf(() => store.updateJob(job.id, { error: { message: 'x' } as never }))).toEqual({ code: 'SLEDGE_E_VALIDATION', field: 'error' });
    expect(store.getJob(job.id)).toEqual(job);
  });

  it('lists newest first with filters, text search, limit/offset and a total', async () => {
    const { store } = tempStore();
    const made: string[] = [];
    const specs = [
      { engine: 'postgresql', type: 'build', label: 'warehouse build' },
      { engine: 'mysql', type: 'run', label: 'mysql baseline', profileId: 1 },
      { engine: 'sqlite', type: 'run', label: 'laptop 100%_run' },
      { engine: 'postgresql', type: 'check' },
      { engine: 'mariadb', type: 'run', profileId: 1 },
      { engine: 'postgresql', type: 'run', label: 'pg tuned', profileId: 2 },
    ] as const;
    for (const s of specs) {
      made.push(store.createJob(jobInput(s)).id);
      await sleep(2);
    }
    store.updateJob(made[5] ?? '', { status: 'completed', summary: 'System achieved 999 NOPM' });
    store.updateJob(made[1] ?? '', { status: 'failed', summary: 'connection refused' });

    const all = store.listJobs({});
    expect(all.total).toBe(6);
    expect(all.jobs.map((j) => j.id)).toEqual([...made].reverse());

    const ids = (q: Parameters<JobStore['listJobs']>[0]) => store.listJobs(q).jobs.map((j) => j.id);
    expect(ids({ engine: 'postgresql' })).toEqual([made[5], made[3], made[0]]);
    expect(ids({ type: 'run' })).toEqual([made[5], made[4], made[2], made[1]]);
    expect(ids({ status: 'queued' })).toEqual([made[4], made[3], made[2], made[0]]);
    expect(ids({ status: 'failed' })).toEqual([made[1]]);
    expect(ids({ workload: 'tprocc' })).toHaveLength(6);
    expect(ids({ profileId: 1 })).toEqual([made[4], made[1]]);
    expect(ids({ engine: 'postgresql', type: 'run' })).toEqual([made[5]]);
    // Text search over label, summary, engine and id; case-insensitive; wildcards literal.
    expect(ids({ q: 'BASELINE' })).toEqual([made[1]]);
    expect(ids({ q: '999 nopm' })).toEqual([made[5]]);
    expect(ids({ q: 'refused' })).toEqual([made[1]]);
    expect(ids({ q: 'maria' })).toEqual([made[4]]);
    expect(ids({ q: (made[3] ?? '').slice(10).toLowerCase() })).toEqual([made[3]]);
    expect(ids({ q: '%_' })).toEqual([made[2]]);
    expect(ids({ q: '_' })).toEqual([made[2]]);
    expect(ids({ q: 'nothing like this' })).toEqual([]);
    // Paging.
    const page = store.listJobs({ limit: 2, offset: 1 });
    expect(page.total).toBe(6);
    expect(page.jobs.map((j) => j.id)).toEqual([made[4], made[3]]);
    const filtered = store.listJobs({ type: 'run', limit: 1, offset: 3 });
    expect(filtered).toEqual({ jobs: [store.getJob(made[1] ?? '')], total: 4 });
    expect(codeOf(() => store.listJobs({ limit: 0 }))).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'limit' });
    expect(codeOf(() => store.listJobs({ engine: 'informix' as 'mysql' }))).toMatchObject({ code: 'SLEDGE_E_VALIDATION' });
  });

  it('picks the best completed run per engine by NOPM', () => {
    const { store } = tempStore();
    const run = (engine: 'postgresql' | 'mysql', nopm: number, status: 'completed' | 'stopped', type: 'run' | 'build' = 'run') => {
      const j = store.createJob(jobInput({ engine, type }));
      store.updateJob(j.id, { status, result: result(nopm, 4) });
      return j.id;
    };
    run('postgresql', 100, 'completed');
    const pgBest = run('postgresql', 900, 'completed');
    run('postgresql', 5000, 'stopped');
    run('postgresql', 9999, 'completed', 'build');
    const myBest = run('mysql', 50, 'completed');
    run('mysql', 50, 'completed');
    store.createJob(jobInput({ engine: 'sqlite' }));
    expect(store.bestJobs()).toEqual({ mysql: myBest, postgresql: pgBest });
  });

  it('summarises performance profiles and lists their points by active VUs', () => {
    const { store } = tempStore();
    const point = (profileId: number, engine: 'postgresql' | 'mysql', vus: number, nopm: number, status: 'completed' | 'failed' = 'completed') => {
      const j = store.createJob(jobInput({ engine, profileId }));
      store.updateJob(j.id, status === 'completed' ? { status, result: result(nopm, vus) } : { status });
      return j.id;
    };
    const a8 = point(1, 'postgresql', 8, 800);
    const a1 = point(1, 'postgresql', 1, 100);
    const a4 = point(1, 'postgresql', 4, 450);
    point(1, 'postgresql', 16, 0, 'failed');
    const b2 = point(2, 'mysql', 2, 200);
    store.createJob(jobInput({ profileId: 0 }));
    store.createJob(jobInput({ profileId: 3, type: 'build' }));
    expect(store.profiles()).toEqual([
      { profileId: 1, jobs: 4, engine: 'postgresql', maxNopm: 800, maxTpm: 1601, maxVus: 8 },
      { profileId: 2, jobs: 1, engine: 'mysql', maxNopm: 200, maxTpm: 401, maxVus: 2 },
    ]);
    const pts = store.profileJobs(1);
    expect(pts.map((p) => p.jobId)).toEqual([a1, a4, a8]);
    expect(pts[1]).toEqual({ jobId: a4, engine: 'postgresql', createdAt: store.getJob(a4)?.createdAt, activeVus: 4, nopm: 450, tpm: 901 });
    expect(store.profileJobs(2).map((p) => p.jobId)).toEqual([b2]);
    expect(store.profileJobs(99)).toEqual([]);
    expect(codeOf(() => store.profileJobs(0))).toEqual({ code: 'SLEDGE_E_VALIDATION', field: 'profileId' });
  });
});

describe('deleteJob', () => {
  it('removes every row of the job in every per-job table, buffered rows included, and nothing of other jobs', () => {
    const { store, path } = tempStore({ flushMs: 60000 });
    const fill = (id: string) => {
      store.updateJob(id, { status: 'completed', result: result(10, 1) });
      store.appendOutput(id, [{ vu: 0, ts: 1, text: 'a' }]);
      store.appendEngineSamples(id, [{ ts: 1, tpm: 1, nopm: 1 }]);
      store.appendClientSamples(id, [{ ts: 1, rates: { neworder: 1, payment: 1, delivery: 0, stocklevel: 0, orderstatus: 0 }, commits: 2, rollbacks: 0, errors: 0 }]);
      store.appendLatency(id, [{ ts: 1, perType: { neworder: { count: 1, p50: 1, p95: 2, p99: 3, max: 4 } } }]);
      store.appendMetrics(id, 'cpu', [{ ts: 1, data: { usr: 1 } }]);
      store.flush();
      store.setTimings(id, [{ proc: 'NEWORD', vu: 0, calls: 1, minMs: 1, avgMs: 1, maxMs: 1, totalMs: 1, p25Ms: 1, p50Ms: 1, p75Ms: 1, p95Ms: 1, p99Ms: 1, sdMs: 0, ratioPct: 100, elapsedMs: 1 }]);
      store.setVus(id, [{ vu: 1, state: 'finished', commits: 1, rollbacks: 0, errors: 0 }]);
      store.setProgress(id, { ts: 1, workers: [], expected: {}, phase: 'done' });
      store.setCheck(id, [{ name: 'tables', ok: true, detail: '9 of 9' }]);
      store.setSystem(id, 'client', { cpus: 2 });
      store.createShare(id);
    };
    const victim = store.createJob(jobInput()).id;
    const other = store.createJob(jobInput()).id;
    fill(victim);
    fill(other);
    // And some rows still in the buffer at delete time.
    for (const id of [victim, other]) {
      store.appendOutput(id, [{ vu: 1, ts: 2, text: 'buffered' }]);
      store.appendMetrics(id, 'ash', [{ ts: 2, data: { sessions: 3 } }]);
    }
    expect(store.pendingRows).toBe(4);

    expect(store.deleteJob(victim)).toBe(true);
    expect(store.pendingRows).toBe(2);
    expect(store.deleteJob(victim)).toBe(false);
    expect(store.getJob(victim)).toBeUndefined();
    expect(store.getJob(other)).toBeDefined();
    expect(() => store.appendOutput(victim, [{ vu: 1, ts: 3, text: 'x' }])).toThrow(/does not exist/);
    store.close();

    const db = new Database(path, { readonly: true });
    try {
      const perJob = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'job' AND sql LIKE '%job_id%'").all() as { name: string }[]).map((r) => r.name);
      // Every table holding job rows is one deleteJob clears.
      expect([...perJob].sort()).toEqual([...JOB_TABLES].sort());
      for (const t of perJob) {
        expect(db.prepare(`SELECT count(*) AS n FROM ${t} WHERE job_id = ?`).get(victim), t).toEqual({ n: 0 });
        expect((db.prepare(`SELECT count(*) AS n FROM ${t} WHERE job_id = ?`).get(other) as { n: number }).n, t).toBeGreaterThan(0);
      }
      expect(db.prepare('SELECT count(*) AS n FROM job WHERE id = ?').get(victim)).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM job_output WHERE job_id = ?').get(other)).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  });

  it('starts seqs again from 1 for a new job after a delete', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput());
    store.appendOutput(a.id, [{ vu: 1, ts: 1, text: 'x' }]);
    store.deleteJob(a.id);
    const b = store.createJob(jobInput({ id: a.id }));
    expect(store.appendOutput(b.id, [{ vu: 1, ts: 1, text: 'y' }])).toEqual({ firstSeq: 1, lastSeq: 1 });
    expect(store.getOutput(b.id).lines.map((l) => l.text)).toEqual(['y']);
  });
});
