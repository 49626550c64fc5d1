import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job, ScriptResult } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * The script workload on SQLite: pgbench's tables built from the Schema
 * page, then on the Run page a script with a mistake
 * shows it inline at its line and column as it is typed; fixed, with a
 * second script beside it, a few seconds' run; the job page shows both
 * scripts as stored and each one's counts. Then a step-load run queued from
 * the Run page's run shape, and its steps on the job page.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 900 } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
});

const BAD = 'SELECT 1;\n\\set id random(1, 10))\nSELECT :id AS id;\n';
const GOOD = 'SELECT 1;\n\\set id random(1, 10)\nSELECT :id AS id;\n';

describe('script workload in the dashboard', () => {
  it('shows a syntax error at its line as it is typed, then runs the fixed scripts and shows each one on the job page', async () => {
    await page.goto(`${server.url}/targets`);
    await page.locator('label[data-engine="sqlite"]').click();
    await fill(page, 'target.file', 'script-e2e.sqlite');
    // pgbench -i -s 1 from the Schema page (the run needs its database).
    await nav(page, 'Schema');
    await page.locator('input[data-workload="script"]').check();
    await fill(page, 'script.scale', '1');
    const buildId = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, buildId, 120_000)).toBe('completed');
    await nav(page, 'Run');
    const editor = page.getByTestId('script-editor');
    await editor.waitFor();
    // The default script is pgbench's tpcb-like, its text from the server.
    await expect.poll(() => page.locator('#script-0-text').inputValue()).toContain('pgbench_accounts');

    await page.getByTestId('script-0-name').fill('lookup');
    await page.locator('#script-0-text').fill(BAD);
    const err = page.getByTestId('script-0-error');
    await err.waitFor({ timeout: 10_000 });
    expect(await err.getAttribute('data-line')).toBe('2');
    expect(await err.textContent()).toMatch(/^Line 2, column \d+: /);
    expect(await page.locator('.script-gutter [data-error-line="true"]').textContent()).toBe('2');
    await shot(page, 'script-editor-error');

    await page.locator('#script-0-text').fill(GOOD);
    await expect.poll(() => page.getByTestId('script-0-status').textContent(), { timeout: 10_000 }).toBe('No syntax errors (3 commands)');
    expect(await err.count()).toBe(0);

    await page.getByTestId('script-add').click();
    await page.getByTestId('script-1-name').fill('two');
    await page.locator('#script-1-text').fill('SELECT 2 AS two;\n');
    await page.getByTestId('script-0-weight').fill('3');
    expect(await page.getByTestId('script-0-share').textContent()).toBe('75.0% of transactions');
    await fill(page, 'script.vus', '2');
    await fill(page, 'script.rampup', '0');
    await fill(page, 'script.duration', '0.05');
    await shot(page, 'script-editor');

    const runId = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, runId, 120_000)).toBe('completed');
    const job = (await api<Job>(server.url, 'GET', `/jobs/${runId}`)).body;
    const r = job.result as ScriptResult;
    expect(r.scripts.map((s) => s.name)).toEqual(['lookup', 'two']);
    expect(r.transactions).toBeGreaterThan(0);

    await page.goto(`${server.url}/jobs/${runId}`);
    await page.getByTestId('result-tps').waitFor({ timeout: 30_000 });
    const table = page.getByTestId('script-table');
    await table.waitFor();
    for (const s of r.scripts) {
      expect(await page.getByTestId(`script-tx-${s.name}`).getAttribute('data-value')).toBe(String(s.transactions));
      expect(Number(await page.getByTestId(`script-count-${s.name}`).getAttribute('data-value'))).toBeGreaterThan(0);
    }
    expect(await table.locator('tr[data-script="lookup"] td').first().textContent()).toBe('3');
    const source = page.getByTestId('script-source-lookup');
    await source.locator('summary').click();
    expect(await source.locator('pre').textContent()).toBe(GOOD);
    await shot(page, 'script-job-page');
  });

  it('queues a step-load run of the scripts from the Run page and shows each step on the job page', async () => {
    // The same database and scripts as above (the Run page keeps them): two steps of 0.05 min, 1 then 2 VUs.
    await nav(page, 'Run');
    await page.getByTestId('script-editor').waitFor();
    const shape = page.getByTestId('run-shape');
    await shape.waitFor();
    await fill(page, 'script.rampup', '0');
    await fill(page, 'script.duration', '0.1');
    await fill(page, 'script.steps', '0:0.05:1, 0.05:0.05:2');
    // A shape decides the sessions: the hint says so under Virtual users.
    const vusHelp = async (): Promise<string> => {
      const ids = (await page.locator('[data-field="script.vus"]').getAttribute('aria-describedby')) ?? '';
      const help = ids.split(' ').find((x) => x.endsWith('-help'));
      return help ? ((await page.locator(`[id="${help}"]`).textContent()) ?? '') : '';
    };
    await expect.poll(vusHelp).toContain("largest step's VUs");
    await shape.scrollIntoViewIfNeeded();
    await shot(page, 'script-run-shape');

    const runId = await startJob(page, 'start-run');
    const queued = (await api<Job>(server.url, 'GET', `/jobs/${runId}`)).body;
    expect((queued.config as { script: { steps: unknown } }).script.steps).toEqual([
      { startAfterMin: 0, durationMin: 0.05, vus: 1 },
      { startAfterMin: 0.05, durationMin: 0.05, vus: 2 },
    ]);
    expect(await waitForJobEnd(page, runId, 120_000)).toBe('completed');
    const r = (await api<Job>(server.url, 'GET', `/jobs/${runId}`)).body.result as ScriptResult;
    expect(r.steps?.map((x) => x.vus)).toEqual([1, 2]);

    await page.goto(`${server.url}/jobs/${runId}`);
    const steps = page.getByTestId('script-steps');
    await steps.waitFor({ timeout: 30_000 });
    for (const st of r.steps!) {
      const row = page.getByTestId(`script-step-${st.index}`);
      expect(await row.locator('td').nth(1).textContent()).toBe(String(st.vus));
      expect(Number((await row.locator('td').nth(3).textContent())!.replace(/,/g, ''))).toBe(st.transactions);
    }
    await steps.scrollIntoViewIfNeeded();
    await shot(page, 'script-job-steps');
  });
});
