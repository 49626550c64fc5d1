import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { copyMariadbTprocc, copyPgTprocc } from './live-template.js';
// @ts-expect-error plain JS helper shared with `pnpm bench async`
import { pgbouncerMissing, startPgBouncer } from '../../bench/pgbouncer.js';

/**
 * Fixed throughput with asynchronous clients (hammerdb.md §6.7): keying and
 * thinking on (a shortened keyThink table so the run is short), many
 * database sessions per VU, on PostgreSQL through PgBouncer (transaction
 * pooling) and on MariaDB with max_connections raised for the run. The
 * sessions are counted on the server side while the run measures.
 */

type Bouncer = { port: number; clients(db: string): number; stop(): Promise<void>; log(): string };
const KEY_THINK = {
  neworder: { keyingSec: 0.5, thinkMeanSec: 1 },
  payment: { keyingSec: 0.3, thinkMeanSec: 1 },
  delivery: { keyingSec: 0.2, thinkMeanSec: 0.8 },
  stocklevel: { keyingSec: 0.2, thinkMeanSec: 0.5 },
  orderstatus: { keyingSec: 0.2, thinkMeanSec: 0.5 },
};
const runBody = (target: object, vus: number, clients: number) => ({
  type: 'run',
  target,
  tprocc: { vus, rampup: 0.1, duration: 0.25, tcRefreshSec: 5, userDelayMs: 100, keyAndThink: true, keyThink: KEY_THINK, asyncScale: true, asyncClients: clients, asyncDelayMs: 20 },
});

/** Run a job while sampling `count()` every 500 ms; the job and the largest count seen. */
async function runCounting(s: SledgeApp, body: object, count: () => number): Promise<{ job: Job; peak: number; lines: string[] }> {
  const r = await post(s, '/api/v1/jobs', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = String(r.body.id);
  let peak = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      try {
        peak = Math.max(peak, count());
      } catch {
        // the server may refuse the count query at its limit: sample again
      }
      await new Promise((res) => setTimeout(res, 500));
    }
  })();
  const job = await waitJob(s, id);
  done = true;
  await sampler;
  const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=10000`);
  return { job, peak, lines: out.lines.map((l) => l.text) };
}

const missing = pgbouncerMissing() as string | null;

describe.skipIf(missing !== null)(`PostgreSQL through PgBouncer, 2 VUs x 50 async clients${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let s: SledgeApp;
  let bouncer: Bouncer;
  const direct = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'async_pgb', password: 'async-pw', database: 'async_pgb', superuser: 'postgres', superuserPassword: 'postgres', sslmode: 'disable' };
  const psql = (sql: string) => execFileSync('psql', ['-X', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', sql]).toString().trim();

  beforeAll(async () => {
    s = await makeApp();
    await copyPgTprocc({ database: direct.database, user: direct.user, password: direct.password });
    bouncer = (await startPgBouncer({ port: 6433, users: ['postgres', 'async_pgb'], poolSize: 10 })) as Bouncer;
  });
  afterAll(async () => {
    await bouncer?.stop();
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target: direct });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s.app.close();
  });

  it('holds 100 client sessions on PgBouncer over at most 10 server sessions; the Active Sessions line and result.sessions say 100', async () => {
    const target = { ...direct, port: bouncer.port, prepared: false };
    let serverPeak = 0;
    const { job, peak, lines } = await runCounting(s, runBody(target, 2, 50), () => {
      serverPeak = Math.max(serverPeak, Number(psql(`select count(*) from pg_stat_activity where datname = 'async_pgb'`)));
      return bouncer.clients('async_pgb');
    });
    expect(job.status, JSON.stringify(job.error) + bouncer.log()).toBe('completed');
    expect(lines).toContain('2 VU * 50 AC = 100 Active Sessions configured');
    expect(lines.some((l) => l.startsWith('Started asynchronous clients:vuser2:ac1 vuser2:ac2 '))).toBe(true);
    expect(lines).toContain('Virtual users run in JavaScript (asynchronous scaling runs in the TypeScript loop)');
    expect(job.result).toMatchObject({ sessions: 100, activeVus: 100 });
    expect(Number(job.result!.nopm)).toBeGreaterThan(0);
    // 100 VU clients (+ the monitor) on PgBouncer, multiplexed onto its pool of 10 server sessions.
    expect(peak).toBeGreaterThanOrEqual(100);
    expect(serverPeak).toBeLessThanOrEqual(10);
    // No error from named statements that a transaction pooler cannot keep.
    expect(lines.filter((l) => /Procedure Error/.test(l))).toEqual([]);
  });

  it('the native libpq loop is not chosen for unnamed statements', async () => {
    const target = { ...direct, port: bouncer.port, prepared: false };
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 1, driver: 'test', totalIterations: 3 } });
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const out = await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=1000`);
    const loop = out.lines.map((l) => l.text).find((t) => t.startsWith('Virtual users run in'));
    // Without the addon the loop is JavaScript for that reason instead; either way not native.
    expect(loop).toMatch(/^Virtual users run in JavaScript/);
  });
});

describe('MariaDB directly, 2 VUs x 100 async clients, max_connections raised for the run', () => {
  let s: SledgeApp;
  const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'async_maria' };
  const sql = (q: string) => execFileSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-e', q]).toString().trim();
  let maxConn0 = 0;

  beforeAll(async () => {
    s = await makeApp();
    await copyMariadbTprocc(target.database);
    maxConn0 = Number(sql('select @@global.max_connections'));
    // 200 sessions + the monitor and the test's own: above MariaDB's default of 151.
    if (maxConn0 < 400) sql('set global max_connections = 400');
  });
  afterAll(async () => {
    if (maxConn0) sql(`set global max_connections = ${maxConn0}`);
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s.app.close();
  });

  it('holds 200 sessions (processlist); the Active Sessions line and result.sessions say 200', async () => {
    const { job, peak, lines } = await runCounting(s, runBody(target, 2, 100), () => Number(sql(`select count(*) from information_schema.processlist where db = 'async_maria'`)));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(lines).toContain('2 VU * 100 AC = 200 Active Sessions configured');
    expect(job.result).toMatchObject({ sessions: 200 });
    expect(Number(job.result!.nopm)).toBeGreaterThan(0);
    expect(peak).toBeGreaterThanOrEqual(200);
  });

  it('asyncVerbose logs each client step: login, transaction and warehouse, keying and thinking time', async () => {
    const r = await post(s, '/api/v1/jobs', {
      type: 'run',
      target,
      tprocc: { vus: 1, driver: 'test', totalIterations: 2, keyAndThink: true, keyThink: KEY_THINK, asyncScale: true, asyncClients: 3, asyncDelayMs: 10, asyncVerbose: true },
    });
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const lines = (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=1000`)).lines.map((l) => l.text);
    expect(lines).toContain('Started asynchronous clients:vuser2:ac1 vuser2:ac2 vuser2:ac3');
    for (const ac of ['ac1', 'ac2', 'ac3']) {
      expect(lines).toContain(`vuser2:${ac}:logged in`);
      expect(lines.filter((l) => new RegExp(`^vuser2:${ac}:w_id \\d+ .*:(neworder|payment|delivery|stocklevel|orderstatus)$`).test(l))).toHaveLength(2);
      expect(lines.filter((l) => new RegExp(`^vuser2:${ac}:keytime:\\w+:\\d+\\.\\d{3} secs$`).test(l))).toHaveLength(2);
      expect(lines.filter((l) => new RegExp(`^vuser2:${ac}:thinktime:\\w+:\\d+\\.\\d{3} secs$`).test(l)).length).toBeGreaterThanOrEqual(1);
    }
  });
});
