import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Disruption, Job } from '@sledge/protocol';
import { PACED, get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';
import { sleep } from './faults/harness.js';
import { copyMariadbTprocc } from './live-template.js';

/**
 * Failover on MariaDB with a default run (reconnect on): every session of
 * the run's user (VUs and the monitor) is killed twice (KILL CONNECTION),
 * then the user's account is locked for 10 s so that the server refuses its
 * logins, and its sessions are killed once more. The run completes, errors
 * are counted by class, the sessions come back and the schema checks.
 *
 * The schema is built as root; the run logs in as faults_myfo, a user of
 * this suite: the sessions killed are exactly that user's.
 *
 * The VUs are paced (PACED, helpers.ts): the subject is the faults' timeline,
 * not the load. An idle VU session is still in the processlist as the run's
 * user (killed and counted back alike), and a VU sees its lost connection at
 * its next transaction, well within the waits below.
 */
const DB = 'faults_myfo';
const USER = 'faults_myfo';
const PW = 'fo-my-pw';
const root = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB };
const runTarget = { ...root, user: USER, password: PW };

function sql(q: string): string {
  const r = spawnSync('mysql', ['-h', '127.0.0.1', '-P', '3306', '-u', 'root', '-N', '-B', '-e', q], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mysql: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}
/** The run's sessions: its user's, and those in its database (a session inside a procedure shows the procedure's definer, root, as its user). */
const userSessions = () => sql(`SELECT id FROM information_schema.processlist WHERE (user = '${USER}' OR db = '${DB}') AND id <> connection_id()`).split('\n').filter(Boolean);
function killAll(): number {
  const ids = userSessions();
  for (const id of ids) {
    try {
      sql(`KILL CONNECTION ${id}`);
    } catch {
      // already gone
    }
  }
  return ids.length;
}
/** The VUs' sessions (the monitor's is one more). */
async function sessionsBack(n: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (userSessions().length < n) {
    if (Date.now() > end) throw new Error(`the sessions did not come back within ${timeoutMs} ms`);
    await sleep(200);
  }
}
const unlock = () => sql(`ALTER USER '${USER}'@'%' ACCOUNT UNLOCK`);

describe('failover: MariaDB connections killed and logins refused mid-run', () => {
  let s: SledgeApp;

  beforeAll(async () => {
    sql(`DROP USER IF EXISTS '${USER}'@'%'`);
    sql(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${PW}'`);
    sql(`GRANT ALL PRIVILEGES ON ${DB}.* TO '${USER}'@'%'`);
    s = await makeApp();
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target: root });
    await waitJob(s, String(del.body.id));
    await copyMariadbTprocc(DB);
  });

  afterAll(async () => {
    try {
      unlock();
    } catch {
      // the user may be gone
    }
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target: root });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s?.app.close();
    sql(`DROP USER IF EXISTS '${USER}'@'%'`);
  });

  it('completes, counts errors by class, marks the disruptions, and the schema stays consistent', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: runTarget, tprocc: { vus: 2, rampup: 0, duration: 0.6, tcRefreshSec: 2, ...PACED } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring'], 120_000);
    await sessionsBack(3);
    await sleep(3000);
    // After each kill, wait until every killed session is back (both VUs and the monitor), not
    // just two of them: a paced VU notices its lost connection at its next transaction, and a
    // VU still reconnecting when the next kill comes would count two kills as one drop.
    const first = killAll();
    await sessionsBack(first);
    await sleep(2000);
    const second = killAll();
    await sessionsBack(second);
    try {
      sql(`ALTER USER '${USER}'@'%' ACCOUNT LOCK`);
      killAll();
      await sleep(10_000);
    } finally {
      unlock();
    }
    expect(first).toBeGreaterThanOrEqual(3);
    expect(second).toBeGreaterThanOrEqual(2);

    const job: Job = await waitJob(s, id, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result!;
    console.log(`[failover mariadb] ${res.line}; ${res.survived}; errors ${JSON.stringify(res.errors?.byClass)}; disruptions ${JSON.stringify(res.disruptions)}`);
    expect(res.nopm).toBeGreaterThan(0);
    expect(res.errors!.byClass['connection']).toBeGreaterThan(0);
    expect(res.firstTryCommits).toBeGreaterThan(0);
    const d = res.disruptions as Disruption[];
    const lost = d.filter((x) => x.kind === 'drop').reduce((a, x) => a + x.sessions, 0);
    const back = d.filter((x) => x.kind === 'back').reduce((a, x) => a + x.sessions, 0);
    expect(lost).toBeGreaterThanOrEqual(6);
    expect(back).toBe(lost);
    expect(res.monitorReconnects).toBeGreaterThanOrEqual(1);
    const out = (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=5000`)).lines.map((l) => l.text);
    expect(out).toContain(res.survived);
    const c = await post(s, '/api/v1/jobs', { type: 'check', target: root });
    const check = await waitJob(s, String(c.body.id));
    expect(check.status, JSON.stringify(check.error)).toBe('completed');
  });
});
