import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Disruption, Job } from '@sledge/protocol';
import { PACED, get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';
import { dropPg, psql, sleep } from './faults/harness.js';
import { copyPgTprocc } from './live-template.js';

/**
 * Failover on PostgreSQL with a default run (reconnect on): every session of
 * the run (VUs, the monitor, the ASH sampler) is terminated twice, then the
 * database refuses connections for 10 s. The run completes with NOPM from
 * the engine counters, errors counted by class, the sessions back, the
 * disruptions on the timeline, and the schema consistent after it.
 *
 * The sessions terminated are exactly this run's: those in database
 * faults_pgfo and those of this suite's roles (the ASH sampler logs in as
 * the superuser faults_pgfo_su in the default database).
 *
 * The VUs are paced (PACED, helpers.ts): the subject is the faults' timeline,
 * not the load. An idle VU session is still a session in pg_stat_activity
 * (terminated and counted back alike), and a VU sees its lost connection at
 * its next transaction, well within the waits below.
 */
const DB = 'faults_pgfo';
const SU = 'faults_pgfo_su';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'fo-pw', database: DB, superuser: SU, superuserPassword: 'fo-su-pw' };
const RUN_SESSIONS = `(datname = '${DB}' OR usename IN ('${DB}', '${SU}')) AND pid <> pg_backend_pid()`;
const terminateAll = () => Number(psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE ${RUN_SESSIONS}`));
const vuSessions = () => Number(psql(`SELECT count(*) FROM pg_stat_activity WHERE datname = '${DB}' AND application_name LIKE 'sledge-vu-%'`));
const REFUSE = [`ALTER DATABASE ${DB} ALLOW_CONNECTIONS false`, `ALTER ROLE ${SU} NOLOGIN`, `ALTER ROLE ${DB} NOLOGIN`];
const RESTORE = [`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`, `ALTER ROLE ${SU} LOGIN`, `ALTER ROLE ${DB} LOGIN`];

async function vusBack(n: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (vuSessions() < n) {
    if (Date.now() > end) throw new Error(`the VUs did not reconnect within ${timeoutMs} ms`);
    await sleep(200);
  }
}

function dropAll(): void {
  dropPg(DB);
  psql(`DROP ROLE IF EXISTS ${SU}`);
}

describe('failover: PostgreSQL sessions terminated and connections refused mid-run', () => {
  let s: SledgeApp;

  beforeAll(async () => {
    dropAll();
    psql(`CREATE ROLE ${SU} SUPERUSER LOGIN PASSWORD '${target.superuserPassword}'`);
    s = await makeApp();
    await copyPgTprocc({ database: DB, user: DB, password: target.password });
  });

  afterAll(async () => {
    for (const sql of RESTORE) {
      try {
        psql(sql);
      } catch {
        // nothing to undo
      }
    }
    await s?.app.close();
    dropAll();
  });

  it('completes, counts errors by class, marks the disruptions, and the schema stays consistent', async () => {
    const duration = 0.6;
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration, tcRefreshSec: 2, ...PACED } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring'], 120_000);
    await vusBack(2);
    await sleep(3000);
    const first = terminateAll();
    await vusBack(2);
    await sleep(2000);
    const second = terminateAll();
    await vusBack(2);
    try {
      for (const sql of REFUSE) psql(sql);
      terminateAll();
      await sleep(10_000);
    } finally {
      for (const sql of RESTORE) psql(sql);
    }
    expect(first).toBeGreaterThanOrEqual(3);
    expect(second).toBeGreaterThanOrEqual(3);

    const job: Job = await waitJob(s, id, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result!;
    const out = (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=5000`)).lines.map((l) => l.text);
    console.log(`[failover pg] ${res.line}; ${res.survived}; errors ${JSON.stringify(res.errors?.byClass)}; disruptions ${JSON.stringify(res.disruptions)}`);
    // A default run: the native libpq loop where its addon is built, else the TypeScript loop; both reconnect and count classes.
    expect(out.some((l) => l === 'Virtual users run in the native libpq loop' || l.startsWith('Virtual users run in JavaScript ('))).toBe(true);
    console.log(`[failover pg] ${out.find((l) => l.startsWith('Virtual users run in'))}`);
    // NOPM/TPM over the window come from the engine counters read at both ends.
    expect(res.nopm).toBeGreaterThan(0);
    expect(res.tpmSource).toBe('engine');
    // Errors by class: the terminations are lost connections.
    expect(res.errors!.byClass['connection']).toBeGreaterThan(0);
    expect(res.errors!.total).toBe(Object.values(res.errors!.byClass).reduce((a, b) => a + b, 0));
    expect(Object.values(res.errors!.byOp).some((c) => c['connection']! > 0)).toBe(true);
    expect(res.retries!.total).toBe(0);
    expect(res.firstTryCommits).toBeGreaterThan(0);
    // Sessions dropped and came back, three times each VU (two terminations, then the refusal).
    const d = res.disruptions as Disruption[];
    const lost = d.filter((x) => x.kind === 'drop').reduce((a, x) => a + x.sessions, 0);
    const back = d.filter((x) => x.kind === 'back').reduce((a, x) => a + x.sessions, 0);
    expect(lost).toBeGreaterThanOrEqual(6);
    expect(back).toBe(lost);
    expect(d.some((x) => x.kind === 'back' && x.at > d.find((y) => y.kind === 'drop')!.at)).toBe(true);
    // The monitor reconnected instead of failing the job, and the run says what it survived.
    expect(res.monitorReconnects).toBeGreaterThanOrEqual(1);
    expect(out.some((l) => /^Monitor: reconnected after/.test(l))).toBe(true);
    expect(out).toContain(res.survived);
    expect(res.survived).toMatch(/^Run survived: \d+ error\(s\) \(connection \d+/);
    // The timeline marks and the live error counts are stored with the job.
    const exp = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/export?format=json` })).json() as { metrics: Record<string, { data: unknown }[]> };
    expect(exp.metrics['disruption']!.length).toBe(d.length);
    expect((exp.metrics['errors']!.at(-1)!.data as { errors: Record<string, number> }).errors['connection']).toBe(res.errors!.byClass['connection']);
    // TPROC-C consistency after the faults.
    const c = await post(s, '/api/v1/jobs', { type: 'check', target });
    const check = await waitJob(s, String(c.body.id));
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
  });
});
