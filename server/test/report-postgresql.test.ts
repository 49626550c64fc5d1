import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { Job, TproccResult } from '@sledge/protocol';
import { startLocalAgent } from '../dist/plugins/local-agent.js';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';

const DB = 'hdb_report_pg';
const SECRET = 'Rep0rtSecretPw';
// Trust authentication accepts any password: the job still carries one, and the report must not.
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: SECRET, database: DB, superuser: 'postgres', superuserPassword: 'Rep0rtSuperPw' };

/** A PostgreSQL run's report: ASH (pg_stat_activity) and CPU (the real local agent) sections filled, no secret. */
describe('HTML report (PostgreSQL)', () => {
  let s: SledgeApp;
  let agent: ChildProcess | null = null;
  let run: Job;

  const del = async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (r.status === 201) await waitJob(s, String(r.body.id));
  };

  beforeAll(async () => {
    s = await makeApp();
    const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
    agent = startLocalAgent(base, undefined, () => undefined);
    for (let i = 0; i < 40 && !(await get<unknown[]>(s, '/api/v1/agents')).length; i++) await new Promise((r) => setTimeout(r, 250));
    await del();
    const b = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 1, buildVus: 1 } });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect((await waitJob(s, String(b.body.id))).status).toBe('completed');
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, label: 'report pg', tprocc: { vus: 2, rampup: 0.1, duration: 0.3, tcRefreshSec: 2, timeProfile: true } });
    run = await waitJob(s, String(r.body.id));
  }, 300_000);
  afterAll(async () => {
    await del();
    agent?.kill();
    await s.app.close();
  });

  it('has the result, throughput, time profile, ASH and CPU sections with their charts and tables', async () => {
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${run.id}/report` });
    expect(r.statusCode).toBe(200);
    const page = r.body;
    const res = run.result as TproccResult;
    expect(page).toContain(res.line);
    expect(page).toContain(`${res.nopm.toLocaleString('en-US')}</div><div class="k">NOPM</div>`);
    expect(page).toContain('PostgreSQL TPM');
    const section = (id: string) => page.slice(page.indexOf(`<section id="${id}">`), page.indexOf('</section>', page.indexOf(`<section id="${id}">`)));
    for (const id of ['throughput', 'timing', 'ash', 'cpu']) {
      expect(page, id).toContain(`<section id="${id}">`);
      expect(section(id), id).toMatch(/<svg [^>]*>\s*<rect[^]*<path d="M/);
    }
    // ASH: on CPU plus at least one wait class, and the transaction calls as top SQL.
    expect(section('ash')).toContain('<td>CPU</td>');
    expect(section('ash')).toMatch(/Top SQL[^]*(neword|payment|delivery|slev|ostat)/i);
    // CPU: the local agent's samples, with its usr/sys/idle means.
    expect(section('cpu')).toMatch(/\(local\)/);
    expect(section('cpu')).toMatch(/<td class="n">\d+\.\d<\/td><\/tr>/);
    expect(page).not.toMatch(/https?:\/\//i);
    expect(page).not.toMatch(/<script/i);
  });

  it('never shows the target password or the superuser password', async () => {
    const page = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${run.id}/report` })).body;
    expect(page).toContain('<td>target.password</td><td>********</td>');
    expect(page).not.toContain(SECRET);
    expect(page).not.toContain('Rep0rtSuperPw');
  });
});
