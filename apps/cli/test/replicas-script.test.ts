/**
 * The script workload on replicas over NATS: a nats-server of the test's own
 * (JetStream, token), two `sledge replica` processes, a primary (the server
 * app, in process) and a SQLite file with one table the test creates (no
 * schema build). Each script writes a row per run, tagged with its script and
 * `:client_id`, so the database says what every VU did, and the primary's
 * merged counters must say the same: per VU (whole run), per script and per
 * replica (measured window), and the time profile by script must equal the
 * merge of the replicas' own frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@sledge/server';
import { driver as sqlite } from '@sledge/driver-sqlite';
import type { ReplicaList, ScriptResult, SqliteTarget, TimingRow, VuStatus } from '@sledge/protocol';
import { appApi, replicaFrames, startNats, startReplica, waitFor, type ReplicaProc } from './nats-harness.js';

const TOKEN = 'script-n4ts-T0ken';

// `ins` commits one row per run; `bad` writes its row (autocommit), then fails in \set: one error per run, its row kept.
const INS = "\\set v random(1, 1000)\nINSERT INTO marks (script, client, v) VALUES ('ins', :client_id, :v);\n";
const BAD = "INSERT INTO marks (script, client, v) VALUES ('bad', :client_id, 0);\n\\set zero random(0, 0)\n\\set boom 1 / :zero\n";

type App = Awaited<ReturnType<typeof buildApp>>;
type Replicated = ScriptResult & { replicas: { name: string; vus: number[]; transactions: number; finishedVus: number; lostAt?: number }[]; vusFinished: number };

describe('the script workload on replicas over NATS (SQLite)', () => {
  let nats: { url: string; stop: () => Promise<void> };
  let s: App;
  let dataDir: string;
  let target: SqliteTarget;
  let replicas: ReplicaProc[] = [];

  const { post, get, waitJob } = appApi(() => s);

  /** Rows of the marks table per (script, client). */
  const marks = async (): Promise<Map<string, number>> => {
    const db = await sqlite.openParamSession!(target, { name: 'replicas-script-check', log: () => undefined });
    try {
      const rows = (await db.run('SELECT script, client, count(*) AS n FROM marks GROUP BY script, client', [])) as { script: string; client: number; n: number }[];
      return new Map(rows.map((r) => [`${r.script}/${r.client}`, Number(r.n)]));
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-script-'));
    // An absolute path: the replicas open the same file.
    target = { engine: 'sqlite', file: join(dataDir, 'marks.sqlite'), busyTimeoutMs: 30_000, synchronous: 'normal' };
    const db = await sqlite.openParamSession!(target, { name: 'replicas-script-setup', log: () => undefined, create: true });
    await db.run('CREATE TABLE marks (script TEXT NOT NULL, client INTEGER NOT NULL, v INTEGER NOT NULL)', []);
    await db.close();
    s = await buildApp({ dataDir, uiDir: null, logger: false, nats: { url: nats.url, token: TOKEN, lossMs: 5000 } });
    replicas = [startReplica('r1', nats.url, { token: TOKEN }), startReplica('r2', nats.url, { token: TOKEN })];
    await waitFor(async () => (await get<ReplicaList>('/api/v1/replicas')).replicas.filter((r) => r.state === 'ready').length === 2, 'two ready replicas');
  }, 120_000);

  afterAll(async () => {
    for (const r of replicas) r.proc.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    await s?.app.close();
    await nats?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('runs the job\'s scripts on both replicas: per-VU counts equal the rows each VU wrote, per-script and per-replica counts add up, latency merged exactly, thresholds judged', async () => {
    const r = await post('/api/v1/jobs', {
      type: 'run',
      workload: 'script',
      target,
      placement: { on: 'replicas' },
      script: { scripts: [{ name: 'ins', text: INS, weight: 3 }, { name: 'bad', text: BAD, weight: 1 }], vus: 4, rampup: 0, duration: 0.15 },
      thresholds: ['error_rate(ins)<1%', 'p99(ins)<60s', 'error_rate(bad)<1%'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(String(r.body['id']));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as unknown as Replicated;

    // VUs 2..5 (client_id 0..3), two on each replica; none lost, all finished.
    expect(res.replicas.map((x) => [x.name, x.vus])).toEqual([
      ['r1', [2, 3]],
      ['r2', [4, 5]],
    ]);
    expect(res.vusFinished).toBe(4);
    for (const x of res.replicas) {
      expect(x.transactions, x.name).toBeGreaterThan(0);
      expect(x.lostAt).toBeUndefined();
    }

    // The whole run, per VU: each VU's commits are its `ins` rows and its errors its `bad` rows, on both replicas.
    const rows = await marks();
    const vus = await get<VuStatus[]>(`/api/v1/jobs/${job.id}/vus`);
    expect(vus.map((v) => v.vu).sort()).toEqual([2, 3, 4, 5]);
    for (const v of vus) {
      const client = v.vu - 2;
      expect(v.state, `VU ${v.vu}`).toBe('finished');
      expect(v.commits, `VU ${v.vu} commits`).toBeGreaterThan(0);
      expect(v.commits, `VU ${v.vu} commits`).toBe(rows.get(`ins/${client}`) ?? 0);
      expect(v.errors, `VU ${v.vu} errors`).toBeGreaterThan(0);
      expect(v.errors, `VU ${v.vu} errors`).toBe(rows.get(`bad/${client}`) ?? 0);
    }
    expect([...rows.keys()].sort()).toEqual(['bad/0', 'bad/1', 'bad/2', 'bad/3', 'ins/0', 'ins/1', 'ins/2', 'ins/3']);
    const sum = (script: string) => [0, 1, 2, 3].reduce((a, c) => a + (rows.get(`${script}/${c}`) ?? 0), 0);

    // The measured window (rampup 0: all of the run but what ran after its end), per script and per replica.
    const [ins, bad] = res.scripts;
    expect(ins).toMatchObject({ name: 'ins', weight: 3, errors: 0 });
    expect(bad).toMatchObject({ name: 'bad', weight: 1, transactions: 0 });
    expect(ins!.transactions).toBeGreaterThan(0);
    expect(ins!.transactions).toBeLessThanOrEqual(sum('ins'));
    expect(bad!.errors).toBeGreaterThan(0);
    expect(bad!.errors).toBeLessThanOrEqual(sum('bad'));
    expect(res.transactions).toBe(ins!.transactions + bad!.transactions);
    expect(res.failed).toBe(bad!.errors);
    expect(res.replicas.reduce((a, x) => a + x.transactions, 0)).toBe(res.transactions);
    expect(res.line).toMatch(new RegExp(`^TEST RESULT : System achieved [\\d.]+ TPS \\(${res.transactions} transactions, ${res.failed} failed in [\\d.]+ s, 4 VU\\)$`));

    // Thresholds by script are judged on the replicas' merged counters and latency.
    expect(job.thresholdResults?.map((t) => [t.metric, t.ok])).toEqual([['error_rate(ins)', true], ['p99(ins)', true], ['error_rate(bad)', false]]);
    expect(job.thresholdResults?.[0]?.actual).toBe(0);
    expect(job.thresholdResults?.[1]?.actual).toBeGreaterThan(0);
    expect(job.thresholdResults?.[2]?.actual).toBe(100);

    // The job's time profile by script equals the replicas' own window profiles (their frames on JetStream), merged here.
    const { profiles, merged } = await replicaFrames(nats.url, TOKEN, job.id);
    expect(profiles).toBe(2);
    // failed runs are counted as errors, not timed: only `ins` has a latency profile
    expect([...merged.keys()]).toEqual(['ins']);
    const timings = (await get<TimingRow[]>(`/api/v1/jobs/${job.id}/timing`)).filter((t) => t.vu === 0);
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    for (const [op, h] of merged) {
      const row = timings.find((t) => t.proc === op);
      expect(row, op).toBeDefined();
      expect(row!.calls, op).toBe(h.count);
      expect(row!.p50Ms, op).toBe(r3(h.percentile(50) / 1000));
      expect(row!.p99Ms, op).toBe(r3(h.percentile(99) / 1000));
      expect(row!.maxMs, op).toBe(r3(h.max / 1000));
    }
    expect(merged.get('ins')!.count).toBeGreaterThan(0);
    expect(timings.find((t) => t.proc === 'bad')).toBeUndefined();

    const out = (await get<{ lines: { text: string }[] }>(`/api/v1/jobs/${job.id}/output?limit=2000`)).lines.map((l) => l.text).join('\n');
    expect(out).toContain('4 VU(s) on 2 replica(s): r1 2, r2 2');
    expect(out).toContain(`Script ins (weight 3): ${ins!.transactions} transactions`);
    expect(out).toContain(`Script bad (weight 1): 0 transactions, 0 TPS, ${bad!.errors} errors`);
  }, 180_000);

  it('refuses, before storing anything, a script with a mistake and a pipelined script on SQLite', async () => {
    const before = (await get<{ total: number }>('/api/v1/jobs')).total;
    const body = (text: string) => ({ type: 'run', workload: 'script', target, placement: { on: 'replicas' }, script: { scripts: [{ name: 'ok', text: INS }, { name: 'oops', text }], vus: 2, rampup: 0, duration: 0.1 } });
    const syntax = await post('/api/v1/jobs', body('\\set x random(1, 10\nSELECT :x;\n'));
    expect(syntax.status).toBe(400);
    expect(syntax.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[1].text' });
    expect(String((syntax.body['error'] as { message: string }).message)).toMatch(/^oops:1:\d+: /);
    const piped = await post('/api/v1/jobs', body('\\startpipeline\nSELECT 1;\n\\endpipeline\n'));
    expect(piped.status).toBe(400);
    expect(piped.body['error']).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'script.scripts[1].text' });
    expect(String((piped.body['error'] as { message: string }).message)).toMatch(/^oops:1: \\startpipeline: sqlite has no pipeline mode/);
    expect((await get<{ total: number }>('/api/v1/jobs')).total).toBe(before);
    expect((await get<ReplicaList>('/api/v1/replicas')).replicas.map((x) => x.state)).toEqual(['ready', 'ready']);
  });
});
