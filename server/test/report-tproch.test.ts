import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TprochResult } from '@sledge/protocol';
import { makeApp, post, waitJob, type SledgeApp } from './helpers.js';

/** TPROC-H reports on SQLite (SF 0.01): query times per stream, geomean, refresh times; a comparison of two runs. */
describe('HTML report (TPROC-H, SQLite)', () => {
  let s: SledgeApp;
  const target = { engine: 'sqlite', file: 'report-h.sqlite' };
  const runs: Job[] = [];

  beforeAll(async () => {
    s = await makeApp();
    const b = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: 0.01, buildVus: 2 } });
    expect((await waitJob(s, String(b.body.id))).status).toBe('completed');
    for (const tproch of [{ scaleFactor: 0.01, refresh: true, trickleMs: 0 }, { scaleFactor: 0.01, mode: 'throughput', streams: 2 }]) {
      const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, tproch, seed: 7 });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      runs.push(await waitJob(s, String(r.body.id)));
    }
  }, 300_000);
  afterAll(async () => {
    await s.app.close();
  });

  it('shows the geomean, the per-query chart and table, the streams and the refresh functions', async () => {
    const job = runs[0]!;
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const r = job.result as TprochResult;
    const page = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/report` })).body;
    expect(page).toContain(`<div class="v">${r.geomean.toFixed(5)}</div><div class="k">geomean (s)</div>`);
    expect(page).toContain(r.line);
    const q = page.slice(page.indexOf('<section id="queries">'));
    expect(q).toMatch(/^<section id="queries"><h2>Query times<\/h2>\s*<figure class="chart"[^]*?<svg /);
    // Every query's time, as stored (3 decimals), in the power stream's column.
    for (const x of r.queries.filter((x) => !x.error)) expect(q).toContain(`<td>Q${x.query}</td><td class="n">${x.seconds.toFixed(3)}</td><td class="n">${x.rows.toLocaleString('en-US')}</td>`);
    expect(q).toContain('<h3>Refresh functions</h3>');
    expect(q).toContain(`<td class="n">${r.refreshes[0]!.rf1Seconds.toFixed(3)}</td>`);
    expect(page).not.toMatch(/https?:\/\//i);
  });

  it('a throughput run has one column per stream; two runs compare by geomean and per query', async () => {
    const t = runs[1]!;
    expect(t.status, JSON.stringify(t.error)).toBe('completed');
    const page = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${t.id}/report` })).body;
    expect(page).toContain('<th class="n">stream 1 s</th>');
    expect(page).toContain('<th class="n">stream 2 s</th>');
    const c = await s.app.inject({ method: 'GET', url: `/api/v1/compare/report?jobs=${runs.map((j) => j.id).join(',')}` });
    expect(c.statusCode).toBe(200);
    expect(c.body).toContain('Comparison of 2 TPROC-H jobs');
    expect(c.body).toContain(`<td class="n">${(t.result as TprochResult).geomean.toFixed(5)}</td>`);
    expect((c.body.match(/<svg /g) ?? []).length).toBe(4);
  });
});
