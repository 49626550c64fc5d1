import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { psql, sleep } from './faults/harness.js';
import { makeApp, runJob, type SledgeApp } from './helpers.js';
import { copyPgTprocc } from './live-template.js';
import { ashViews, texts, type AshViews } from './ash-scope-views.js';

/**
 * ASH on PostgreSQL samples the benchmark's database by default
 * (metrics.ashScope 'database'). While a run samples, another client on
 * ANOTHER database, as another role, runs pg_sleep() with a distinctive
 * literal in its text, and a third client on the benchmark's own database
 * names itself like one of our VUs (application_name sledge-vu-2). The
 * job's ASH (REST, the JSON export, the HTML report, the share link's
 * snapshot and report) holds no session of the other database, not its
 * role and not the literal; the impostor is never one of the job's VUs.
 * A run with ashScope 'server' records the scope and shows the other
 * database's session to the owner only: the share link and the HTML
 * reports leave it out and say so.
 */
const DB = 'sledge_ash_scope_pg';
const OTHER_DB = 'sledge_ash_other_pg';
const OTHER_ROLE = 'sledge_ash_other_role';
const LITERAL = 'other-tenant-secret-4242';
const SPOOF = 'impostor-marker-5151';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'ash-scope-pw', database: DB, superuser: 'postgres', superuserPassword: 'postgres', sslmode: 'disable' };

/** A separate client (psql) busy in `statement` (a pg_sleep), as `user` on `database`, named `app`. */
function busy(user: string, database: string, app: string, statement: string): ChildProcess {
  const c = spawn('psql', ['-X', '-h', '127.0.0.1', '-U', user, '-d', database, '-c', statement], {
    env: { ...process.env, PGAPPNAME: app },
    stdio: 'ignore',
  });
  c.on('error', () => undefined);
  return c;
}

/** Wait until the busy session shows in pg_stat_activity (its role too: other suites' VUs, running alongside, are named sledge-vu-N). */
async function active(user: string, app: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (psql(`SELECT count(*) FROM pg_stat_activity WHERE usename = '${user}' AND application_name = '${app}' AND state = 'active'`) === '1') return;
    await sleep(100);
  }
  throw new Error(`session ${app} did not start`);
}

// 6 s measured, flat out (not paced: ASH samples sessions while they are active): ~6 samples a session.
const run = { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.1, tcRefreshSec: 2 } };

describe('PostgreSQL ASH scope', () => {
  let s: SledgeApp;
  const clients: ChildProcess[] = [];
  let dflt: AshViews;

  beforeAll(async () => {
    psql(`DROP DATABASE IF EXISTS ${OTHER_DB} WITH (FORCE)`);
    psql(`DROP ROLE IF EXISTS ${OTHER_ROLE}`);
    psql(`CREATE ROLE ${OTHER_ROLE} LOGIN PASSWORD 'x'`);
    psql(`CREATE DATABASE ${OTHER_DB} OWNER ${OTHER_ROLE}`);
    s = await makeApp();
    await runJob(s, { type: 'delete', target });
    await copyPgTprocc({ database: DB, user: DB, password: target.password });
    clients.push(busy(OTHER_ROLE, OTHER_DB, 'other-tool', `SELECT pg_sleep(600), '${LITERAL}' AS marker`));
    // Another tool on the benchmark's database and role, named like our VU 2 (another statement shape: its own SQL id).
    clients.push(busy(DB, DB, 'sledge-vu-2', `SELECT '${SPOOF}' AS impostor, pg_sleep(600)`));
    await active(OTHER_ROLE, 'other-tool');
    await active(DB, 'sledge-vu-2');
    const j1 = await runJob(s, run);
    expect(j1.status, JSON.stringify(j1.error)).toBe('completed');
    dflt = await ashViews(s, j1);
  });

  afterAll(async () => {
    for (const c of clients) c.kill('SIGKILL');
    psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename IN ('${OTHER_ROLE}', '${DB}') AND application_name IN ('other-tool', 'sledge-vu-2')`);
    if (s) {
      await runJob(s, { type: 'delete', target }).catch(() => undefined);
      await s.app.close();
    }
    psql(`DROP DATABASE IF EXISTS ${OTHER_DB} WITH (FORCE)`);
    psql(`DROP ROLE IF EXISTS ${OTHER_ROLE}`);
  });

  it('by default: the job records ashScope database and no view holds the other database, its role or its literal', () => {
    // The run was sampled: our VUs are there.
    console.log(`[ash-scope pg] default scope: ${dflt.samples.length} samples, ${dflt.samples.filter((x) => x.vu !== undefined).length} of the job's VUs, ${dflt.samples.filter((x) => x.sql?.includes(SPOOF)).length} of the impostor`);
    expect(dflt.samples.some((x) => x.vu !== undefined)).toBe(true);
    for (const [view, text] of Object.entries(texts(dflt))) {
      expect(text, view).not.toContain(LITERAL);
      expect(text, view).not.toContain(OTHER_ROLE);
      expect(text, view).not.toContain('other-tool');
    }
    expect((dflt.job.config as { metrics: { ashScope: string } }).metrics.ashScope).toBe('database');
    // Nothing was hidden from the public views: nothing outside was sampled.
    expect(dflt.samples.some((x) => x.outside)).toBe(false);
    expect(dflt.sharedSamples.length).toBe(dflt.samples.length);
  });

  it("another tool's session named sledge-vu-2 on the benchmark's database is never one of the job's VUs", () => {
    const spoofed = dflt.samples.filter((x) => x.sql?.includes(SPOOF));
    expect(spoofed.length).toBeGreaterThan(0);
    expect(spoofed.every((x) => x.vu === undefined && x.program === 'sledge-vu-2')).toBe(true);
    // The job's own VUs carry its session tag, and only they have a VU number.
    const ours = dflt.samples.filter((x) => x.vu !== undefined);
    expect(ours.every((x) => /^sledge-vu-\d+~[0-9a-f]{8}$/.test(x.program ?? ''))).toBe(true);
    expect(new Set(ours.map((x) => x.program!.split('~')[1])).size).toBe(1);
    expect(dflt.rest.topSessions.filter((x) => x.program === 'sledge-vu-2').every((x) => x.vu === undefined)).toBe(true);
  });

  it("ashScope server is recorded and shows the other database's session to the owner only", async () => {
    const j2 = await runJob(s, { ...run, metrics: { ashScope: 'server' } });
    expect(j2.status, JSON.stringify(j2.error)).toBe('completed');
    const server = await ashViews(s, j2);
    expect((server.job.config as { metrics: { ashScope: string } }).metrics.ashScope).toBe('server');
    const outside = server.samples.filter((x) => x.sql?.includes(LITERAL));
    console.log(`[ash-scope pg] server scope: ${server.samples.length} samples, ${server.samples.filter((x) => x.vu !== undefined).length} of the job's VUs, ${outside.length} of the other database`);
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((x) => x.outside === true && x.user === OTHER_ROLE && x.vu === undefined)).toBe(true);
    expect(JSON.stringify(server.rest)).toContain(LITERAL);
    expect(server.rest.topSessions.some((x) => x.user === OTHER_ROLE)).toBe(true);
    // Share link (snapshot and report) and the HTML report: the target database's sessions only.
    for (const view of ['report', 'shared', 'sharedReport'] as const) {
      const text = texts(server)[view]!;
      expect(text, view).not.toContain(LITERAL);
      expect(text, view).not.toContain(OTHER_ROLE);
    }
    expect(server.sharedSamples.length).toBe(server.samples.filter((x) => !x.outside).length);
    expect(server.sharedSamples.some((x) => x.vu !== undefined)).toBe(true);
    expect(server.report).toMatch(/\d+ samples of sessions outside the target database and its roles are left out of this report/);
    expect(server.sharedReport).toMatch(/left out of this report/);
  });
});
