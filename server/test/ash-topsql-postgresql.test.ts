import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AshReport } from '@sledge/protocol';
import { get, makeApp, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';

/** Run one statement in its own psql session (a client of the server, as a user's would be). */
function psql(sql: string, app: string): Promise<number | null> {
  return new Promise((resolve) => {
    const p = spawn('psql', ['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-c', sql], { env: { ...process.env, PGAPPNAME: app }, stdio: 'ignore' });
    p.on('close', resolve);
  });
}

/**
 * ASH Top SQL groups statements by a normalised form (issue 31 item 10a):
 * on PostgreSQL 15 without pg_stat_statements there is no query_id, so the
 * id is the md5 of the normalised text. Two sessions run the same statement
 * with other constants (a string, and an IN list of another length) while a
 * build job samples the server: Top SQL has one row for them.
 */
describe('ASH Top SQL on PostgreSQL: one row per statement, whatever its constants', () => {
  let s: SledgeApp;
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'ash_topsql', password: 'topsql-pw', database: 'ash_topsql', superuser: 'postgres', superuserPassword: 'postgres' };
  const del = async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (r.status === 201) await waitJob(s, String(r.body.id));
  };

  beforeAll(async () => {
    s = await makeApp();
    await del();
  });
  afterAll(async () => {
    await del();
    await s.app.close();
  });

  it('two literals of one statement make one Top SQL row, with one example text', async () => {
    // The psql sessions below run in database postgres: the whole server is sampled (ASH's default is the target database).
    const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 }, metrics: { ashScope: 'server' } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['running']);
    const outputs = async () => (await get<{ lines: { text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=1000`)).lines.map((l) => l.text);
    for (let i = 0; i < 100 && !(await outputs()).some((l) => l.startsWith('Active session history: sampling')); i++) await new Promise((res) => setTimeout(res, 100));
    const codes = await Promise.all([
      psql("SELECT pg_sleep(3) AS slept, 'alpha' AS tag WHERE 1 IN (1, 2, 3)", 'sledge-topsql-a'),
      psql("SELECT pg_sleep(3) AS slept, 'be' AS tag WHERE 22 IN (22, 7)", 'sledge-topsql-b'),
    ]);
    expect(codes).toEqual([0, 0]);
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const ash = await get<AshReport>(s, `/api/v1/jobs/${id}/ash`);
    const rows = ash.topSql.filter((q) => q.sql.includes('pg_sleep(3)'));
    expect(rows, JSON.stringify(ash.topSql.map((q) => q.sql.slice(0, 60)))).toHaveLength(1);
    expect(rows[0]!.sql).toMatch(/^SELECT pg_sleep\(3\) AS slept, '(alpha|be)' AS tag WHERE/);
    // Both sessions were sampled under that one row (each slept 3 s while the sampler looked every second).
    const sessions = ash.topSessions.filter((x) => x.program === 'sledge-topsql-a' || x.program === 'sledge-topsql-b');
    expect(sessions).toHaveLength(2);
    const sessionWeight = sessions.reduce((a, x) => a + x.aas, 0);
    expect(rows[0]!.aas).toBeCloseTo(sessionWeight, 2);
  });
});
