import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from './faults/harness.js';
import { makeApp, runJob, type SledgeApp } from './helpers.js';
import { copyMariadbTprocc } from './live-template.js';
import { ashViews, texts, type AshViews } from './ash-scope-views.js';

/**
 * ASH on MariaDB samples the benchmark's schema by default (metrics.ashScope
 * 'database'). While a run samples, another client in ANOTHER schema, as
 * another user, runs SELECT SLEEP() with a distinctive literal in its text.
 * The job's ASH (REST, the JSON export, the HTML report, the share link's
 * snapshot and report) holds none of that session: not its user, not the
 * literal. A run with ashScope 'server' records the scope and shows it to
 * the owner only; the share link and the HTML reports leave it out.
 */
const DB = 'sledge_ash_scope_my';
const OTHER_DB = 'sledge_ash_other_my';
const OTHER_USER = 'sledge_ash_other_user';
const LITERAL = 'other-tenant-secret-4242';
const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB };

function sql(q: string): string {
  const r = spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-B', '-e', q], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mariadb: ${r.stderr}`);
  return r.stdout.trim();
}

// 6 s measured, flat out (not paced: ASH samples sessions while they are active): ~6 samples a session.
const run = { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.1, tcRefreshSec: 2 } };

describe('MariaDB ASH scope', () => {
  let s: SledgeApp;
  let other: ChildProcess | undefined;
  let dflt: AshViews;

  beforeAll(async () => {
    sql(`DROP DATABASE IF EXISTS ${OTHER_DB}; DROP USER IF EXISTS '${OTHER_USER}'@'%'; CREATE DATABASE ${OTHER_DB}; CREATE USER '${OTHER_USER}'@'%' IDENTIFIED BY 'x'; GRANT ALL ON ${OTHER_DB}.* TO '${OTHER_USER}'@'%'`);
    s = await makeApp();
    await runJob(s, { type: 'delete', target });
    await copyMariadbTprocc(DB);
    other = spawn('mariadb', ['-h', '127.0.0.1', '-u', OTHER_USER, '-px', OTHER_DB, '-e', `SELECT SLEEP(600), '${LITERAL}' AS marker`], { stdio: 'ignore' });
    other.on('error', () => undefined);
    for (let i = 0; ; i++) {
      if (sql(`SELECT count(*) FROM information_schema.PROCESSLIST WHERE USER = '${OTHER_USER}' AND COMMAND = 'Query'`) === '1') break;
      if (i > 100) throw new Error('the other schema session did not start');
      await sleep(100);
    }
    const j1 = await runJob(s, run);
    expect(j1.status, JSON.stringify(j1.error)).toBe('completed');
    dflt = await ashViews(s, j1);
  });

  afterAll(async () => {
    other?.kill('SIGKILL');
    // The killed client's session may end between the list and the KILL (ERROR 1094, unknown thread id): that is the goal.
    for (const id of sql(`SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '${OTHER_USER}'`).split('\n').filter(Boolean)) {
      try {
        sql(`KILL ${id}`);
      } catch (e) {
        if (!/ERROR 1094/.test((e as Error).message)) throw e;
      }
    }
    if (s) {
      await runJob(s, { type: 'delete', target }).catch(() => undefined);
      await s.app.close();
    }
    sql(`DROP DATABASE IF EXISTS ${OTHER_DB}; DROP USER IF EXISTS '${OTHER_USER}'@'%'`);
  });

  it('by default: the job records ashScope database and no view holds the other schema, its user or its literal', () => {
    for (const [view, text] of Object.entries(texts(dflt))) {
      expect(text, view).not.toContain(LITERAL);
      expect(text, view).not.toContain(OTHER_USER);
    }
    expect((dflt.job.config as { metrics: { ashScope: string } }).metrics.ashScope).toBe('database');
    // The run was sampled (the statements its procedures run), and only the target user's sessions.
    console.log(`[ash-scope mariadb] default scope: ${dflt.samples.length} samples`);
    expect(dflt.samples.length).toBeGreaterThan(0);
    expect(dflt.samples.every((x) => x.user === 'root')).toBe(true);
    expect(dflt.samples.some((x) => x.outside)).toBe(false);
    expect(dflt.sharedSamples.length).toBe(dflt.samples.length);
  });

  it('ashScope server is recorded and shows the other schema to the owner only', async () => {
    const j2 = await runJob(s, { ...run, metrics: { ashScope: 'server' } });
    expect(j2.status, JSON.stringify(j2.error)).toBe('completed');
    const server = await ashViews(s, j2);
    expect((server.job.config as { metrics: { ashScope: string } }).metrics.ashScope).toBe('server');
    const outside = server.samples.filter((x) => x.sql?.includes(LITERAL));
    console.log(`[ash-scope mariadb] server scope: ${server.samples.length} samples, ${outside.length} of the other schema`);
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((x) => x.outside === true && x.user === OTHER_USER)).toBe(true);
    expect(JSON.stringify(server.rest)).toContain(LITERAL);
    for (const view of ['report', 'shared', 'sharedReport'] as const) {
      const text = texts(server)[view]!;
      expect(text, view).not.toContain(LITERAL);
      expect(text, view).not.toContain(OTHER_USER);
    }
    expect(server.sharedSamples.length).toBe(server.samples.filter((x) => !x.outside).length);
    expect(server.report).toMatch(/left out of this report/);
  });
});
