import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';
import type { Job, TproccResult } from '@sledge/protocol';
import { makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'q' http://evil.example/`;
const URL_RE = /https?:\/\//i;

/** A CPU agent reporting every 500 ms while a job runs (what the job's CPU section draws). */
function agent(base: string, label: string) {
  const ws = new WebSocket(base.replace('http', 'ws') + '/api/v1/agent');
  const system = { hostname: label, cpuModel: 'test cpu', cpuCount: 2, memoryBytes: 1e9, os: 'Debian', kernel: '6.1' };
  const line = (cpu: string) => ({ cpu, usr: 40, sys: 10, iowait: 1, irq: 0, soft: 1, steal: 0, idle: 48 });
  let timer: NodeJS.Timeout | undefined;
  ws.on('open', () => {
    ws.send(JSON.stringify({ t: 'hello', label, system }));
    timer = setInterval(() => ws.send(JSON.stringify({ t: 'cpu', sample: { ts: Date.now(), cpus: [line('all'), line('0'), line('1')], iops: 12, mbps: 0.5 } })), 500);
  });
  return () => (clearInterval(timer), ws.close());
}

/** The HTML report of SQLite jobs run through REST: content, escaping, offline-ness, secrets, errors. */
describe('HTML report (SQLite)', () => {
  let s: SledgeApp & { dataDir: string };
  let base: string;
  const target = { engine: 'sqlite', file: 'report.sqlite' };
  const runs: Job[] = [];

  beforeAll(async () => {
    s = await makeApp();
    base = await s.app.listen({ host: '127.0.0.1', port: 0 });
    sqliteFromTemplate(s, target.file);
    const stop = agent(base, 'db-host');
    await new Promise((r) => setTimeout(r, 300));
    for (const label of [HOSTILE, 'second run']) {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, label, tprocc: { vus: 2, rampup: 0, duration: 0.1, tcRefreshSec: 1, timeProfile: true } });
      expect(r.status).toBe(201);
      runs.push(await waitJob(s, String(r.body.id)));
    }
    stop();
  }, 300_000);
  afterAll(async () => {
    await s.app.close();
  });

  it('serves a job report as an attachment with the result, inline SVG charts and nothing to load', async () => {
    const job = runs[0]!;
    expect(job.status).toBe('completed');
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/report` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="sledge-${job.id}.html"`);
    const page = r.body;
    const result = job.result as TproccResult;
    expect(result.nopm).toBeGreaterThan(0);
    expect(page).toContain(`<div class="v">${result.nopm.toLocaleString('en-US')}</div><div class="k">NOPM</div>`);
    expect(page).toContain(result.line);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:">`);
    // Charts: throughput, client rates, time profile box plot, CPU; light and dark renderings.
    for (const id of ['result', 'throughput', 'timing', 'cpu', 'config', 'output']) expect(page, id).toContain(`<section id="${id}">`);
    expect((page.match(/<svg /g) ?? []).length).toBeGreaterThanOrEqual(8);
    expect(page).toMatch(/<svg [^>]*>\s*<rect[^]*?<path d="M/);
    for (const proc of ['NEWORD', 'PAYMENT', 'DELIVERY', 'SLEV', 'OSTAT']) expect(page).toContain(`<td>${proc}</td>`);
    expect(page).toContain('db-host');
    // Offline: no script, no URL, no external reference of any kind.
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(URL_RE);
    expect(page).not.toMatch(/<[a-z][^>]*\s(src|href)=/i);
    if (process.env.REPORT_SAVE) writeFileSync(process.env.REPORT_SAVE, page);
    // CSS/SVG references stay inside the page (clip paths: url(#id)).
    expect(page).not.toMatch(/url\((?!#)/i);
  });

  it('escapes every string from the job (a hostile label)', async () => {
    const page = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${runs[0]!.id}/report` })).body;
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;q&#39; http&#58;//evil.example/');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('onerror=alert(1)>');
  });

  it('compares 2 to 8 jobs of one workload, with typed errors for the rest', async () => {
    const ids = runs.map((j) => j.id);
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/compare/report?jobs=${ids.join(',')}` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="sledge-compare-${ids.join('-')}.html"`);
    for (const id of ['headline', 'timelines', 'timing', 'config']) expect(r.body, id).toContain(`<section id="${id}">`);
    for (const j of runs) expect(r.body).toContain((j.result as TproccResult).nopm.toLocaleString('en-US'));
    expect(r.body).not.toMatch(URL_RE);
    expect(r.body).not.toMatch(/<script/i);
    const err = async (q: string) => {
      const x = await s.app.inject({ method: 'GET', url: `/api/v1/compare/report?jobs=${q}` });
      return { status: x.statusCode, error: (JSON.parse(x.body) as { error: { code: string; field?: string; message: string } }).error };
    };
    expect(await err(ids[0]!)).toMatchObject({ status: 400, error: { code: 'SLEDGE_E_VALIDATION', field: 'jobs' } });
    expect(await err(Array(9).fill(ids[0]).join(','))).toMatchObject({ status: 400, error: { code: 'SLEDGE_E_VALIDATION', field: 'jobs' } });
    expect(await err(`${ids[0]},${ids[0]}`)).toMatchObject({ status: 400, error: { code: 'SLEDGE_E_VALIDATION', message: expect.stringContaining('listed twice') } });
    expect(await err(`${ids[0]},FFFFFFFFFFFFFFFFFFFFFFFF`)).toMatchObject({ status: 404, error: { code: 'SLEDGE_E_NOT_FOUND', message: 'job FFFFFFFFFFFFFFFFFFFFFFFF not found' } });
  });

  it('answers an unknown job with a typed 404 and no attachment header', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/v1/jobs/FFFFFFFFFFFFFFFFFFFFFFFF/report' });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-disposition']).toBeUndefined();
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'SLEDGE_E_NOT_FOUND', field: 'id' } });
  });

  it('serves the report through a share link, and 404 once it is revoked', async () => {
    const id = runs[1]!.id;
    const sh = await post(s, `/api/v1/jobs/${id}/share`, {});
    const token = String(sh.body.token);
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/shared/${token}/report` });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain(id);
    await s.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${id}/share/${token}` });
    const gone = await s.app.inject({ method: 'GET', url: `/api/v1/shared/${token}/report` });
    expect(gone.statusCode).toBe(404);
    expect(JSON.parse(gone.body)).toMatchObject({ error: { code: 'SLEDGE_E_NOT_FOUND', field: 'token' } });
  });

  it('lists the report routes in the OpenAPI document', async () => {
    const doc = JSON.parse((await s.app.inject({ method: 'GET', url: '/docs/json' })).body) as { paths: Record<string, { get?: { summary?: string } }> };
    for (const p of ['/api/v1/jobs/{id}/report', '/api/v1/compare/report', '/api/v1/shared/{token}/report']) expect(doc.paths[p]?.get?.summary, p).toBeTruthy();
  });
});
