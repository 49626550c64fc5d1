import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Capabilities, ChbenchResult, Job } from '@sledge/protocol';
import { shot, shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * CH-benCHmark in the browser on the default SQLite target: picked on the
 * Schema page, 1 warehouse built into chbench.sqlite, a run of 2 VUs and 1
 * analytic stream (rampup 0, 0.25 min) from the Run page (live NOPM/TPM
 * beside the analytic streams), the job page with NOPM and the analytic
 * table, then a second run and compare (NOPM and queries/hour side by side).
 */

let dataDir: string;
let server: RunningServer;
let browser: Chromium;
let page: Page;
const runs: string[] = [];

const jobOf = async (id: string) => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sledge-e2e-chbench-'));
  ({ server, browser, page } = await openSession({ server: { dataDir } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('CH-benCHmark on SQLite', () => {
  it('the server offers CH-benCHmark on SQLite', async () => {
    const caps = (await api<Capabilities>(server.url, 'GET', '/capabilities')).body;
    expect(caps.engines.find((e) => e.engine === 'sqlite')?.workloads).toContain('chbench');
  });

  it("builds 1 warehouse from the Schema page with CH-benCHmark picked, into its own chbench.sqlite", async () => {
    await page.goto(`${server.url}/targets`);
    await page.locator('label[data-engine="sqlite"]').click();
    await nav(page, 'Schema');
    await page.locator('input[data-workload="chbench"]').check();
    expect(await page.locator('#schema-h').textContent()).toBe('CH-benCHmark schema on SQLite');
    await fill(page, 'tprocc.warehouses', '1');
    await fill(page, 'tprocc.buildVus', '1');
    const id = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, id, 300_000)).toBe('completed');
    const build = await jobOf(id);
    expect(build.workload).toBe('chbench');
    expect((build.config as { target: { file: string } }).target.file).toMatch(/\/chbench\.sqlite$/);
    await shot(page, 'chbench-build-done');
  });

  it('runs 2 VUs and 1 analytic stream: live NOPM/TPM beside the streams, then the job page with NOPM and the analytic table', async () => {
    await nav(page, 'Run');
    expect(await page.locator('#run-h').textContent()).toBe('CH-benCHmark driver on SQLite');
    // The timed driver only: no driver choice, no run shapes.
    expect(await page.locator('[data-field="tprocc.driver"]').count()).toBe(0);
    expect(await page.getByTestId('run-shape').count()).toBe(0);
    await fill(page, 'tprocc.vus', '2');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.25');
    await fill(page, 'chbench.analyticStreams', '1');
    // SQLite has no degree of parallelism: no DOP field.
    expect(await page.locator('[data-field="chbench.dop"]').count()).toBe(0);
    await fill(page, 'chbench.queryTimeoutSec', '60');
    await shot(page, 'chbench-run-form');
    const id = await startJob(page, 'start-run');
    runs.push(id);
    const job = await jobOf(id);
    expect(job.config).toMatchObject({ workload: 'chbench', tprocc: { vus: 2, rampup: 0, duration: 0.25, driver: 'timed' }, chbench: { analyticStreams: 1, queryTimeoutSec: 60 } });
    // Live: the analytic streams' timeline and a completed query on the chart beside NOPM/TPM.
    await page.getByTestId('chbench-timeline').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="chart-analytic-completed"]')?.getAttribute('data-completed') ?? '0') > 0, undefined, { timeout: 60_000, polling: 500 });
    expect(await page.getByTestId('live-nopm').count()).toBe(1);
    expect(Number(await page.getByTestId('live-analytic-queries').textContent())).toBeGreaterThan(0);
    await shot(page, 'chbench-run-live');
    await shotOf(page.locator('.chbench-charts'), 'chbench-run-live-charts');
    expect(await waitForJobEnd(page, id, 180_000)).toBe('completed');
    await shot(page, 'chbench-run-done');

    const r = (await jobOf(id)).result as ChbenchResult;
    expect(r.nopm).toBeGreaterThan(0);
    expect(r.analytic.streams).toBe(1);
    await page.goto(`${server.url}/jobs/${id}`);
    await page.getByTestId('result-banner').waitFor();
    expect(Number(await page.getByTestId('result-nopm').getAttribute('data-value'))).toBe(r.nopm);
    expect(Number(await page.getByTestId('result-qph').getAttribute('data-value'))).toBeCloseTo(r.analytic.queriesPerHour, 6);
    expect(Number(await page.getByTestId('result-completed').getAttribute('data-value'))).toBe(r.analytic.completedQueries);
    expect(await page.locator('[data-testid="analytic-table"] tbody tr[data-query]').count()).toBe(22);
    for (const q of r.analytic.perQuery) expect(Number(await page.getByTestId(`analytic-count-q${q.query}`).textContent())).toBe(q.count);
    await shot(page, 'chbench-job-page');
    await shotOf(page.locator('.result-banner').first().locator('..'), 'chbench-job-top');
    await shotOf(page.getByTestId('analytic-table'), 'chbench-analytic-table');
  });

  it('compares two CH-benCHmark runs: NOPM and queries/hour side by side', async () => {
    await nav(page, 'Run');
    const id = await startJob(page, 'start-run');
    runs.push(id);
    expect(await waitForJobEnd(page, id, 180_000)).toBe('completed');
    await page.goto(`${server.url}/compare?jobs=${runs.join(',')}`);
    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 20_000 });
    const heads = await table.locator('thead th').allTextContents();
    expect(heads).toEqual(expect.arrayContaining(['NOPM', 'NOPM vs base', 'Queries/h', 'Queries/h vs base']));
    expect(await page.getByTestId('delta-nopm').count()).toBe(1);
    expect(await page.getByTestId('delta-qph').count()).toBe(1);
    await shot(page, 'chbench-compare');
  });
});
