import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptResult } from '@sledge/protocol';
import { makeApp, runJob, type SledgeApp } from './helpers.js';

/** A script run's HTML report carries its scripts (names, weights, text as run) and each one's figures. */
describe('script workload HTML report (SQLite)', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s?.app.close();
  });

  it('has a Scripts section with each script, its figures and its text', async () => {
    // A run needs its SQLite database: pgbench -i -s 1.
    const build = await runJob(s, { type: 'build', workload: 'script', target: { engine: 'sqlite', file: 'script-report.sqlite' }, script: { scale: 1 } });
    expect(build.status).toBe('completed');
    const one = '\\set id random(1, 10)\nSELECT :id AS "x<y>";\n';
    const job = await runJob(s, {
      type: 'run',
      workload: 'script',
      target: { engine: 'sqlite', file: 'script-report.sqlite' },
      script: { scripts: [{ name: 'one', text: one, weight: 3 }, { name: 'two', text: 'SELECT 2;\n', weight: 1 }], vus: 1, rampup: 0, duration: 0.02 },
    });
    expect(job.status).toBe('completed');
    const r = job.result as ScriptResult;
    expect(r.scripts.map((x) => x.name)).toEqual(['one', 'two']);
    const res = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/report` });
    expect(res.statusCode).toBe(200);
    const page = res.body;
    const section = page.slice(page.indexOf('<section id="scripts">'));
    expect(section).toContain('<h2>Scripts</h2>');
    // The text as run, escaped; the figures of each script from the result.
    expect(section).toContain('SELECT :id AS &quot;x&lt;y&gt;&quot;;');
    expect(section).toContain('<h3 class="mono">two</h3>');
    const row = (name: string) => section.slice(section.indexOf(`<td>${name}</td>`), section.indexOf('</tr>', section.indexOf(`<td>${name}</td>`)));
    expect(row('one')).toContain(`<td class="n">${r.scripts[0]!.transactions.toLocaleString('en-US')}</td>`);
    expect(row('one')).toContain('75.0%');
    expect(row('two')).toContain('25.0%');
    // The result section's figures: TPS and transactions.
    expect(page).toContain('TPS');
  });
});
