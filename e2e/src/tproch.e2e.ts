import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Capabilities, Job, TprochResult } from '@sledge/protocol';
import { shot, shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { writeTprochJobs } from './tproch-fixture.js';
import { api, fill, nav, pickSqlite, startJob, waitForJobEnd } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * TPROC-H in the browser. First two stored power runs (a generated fixture
 * written into the job store) on the job page, the jobs list and compare;
 * then the real flow on SQLite: pick TPROC-H on the Schema page, build SF
 * 0.01, power runs from the Run page (the timeline while live), the job page
 * with 22 query times, the geometric mean and a plan, and compare of the two
 * runs query by query.
 */

let dataDir: string;
let server: RunningServer;
let browser: Chromium;
let page: Page;
let fixtures: string[];

const jobOf = async (id: string) => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
const rowsOf = (p: Page, testId: string) => p.locator(`[data-testid="${testId}"] tbody tr[data-query]`);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sledge-e2e-tproch-'));
  fixtures = writeTprochJobs(dataDir);
  ({ server, browser, page } = await openSession({ server: { dataDir } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('stored TPROC-H runs (generated fixture)', () => {
  it("job page: result banner with geomean and Sledge's scores (not TPC results), timeline, 22 query times and a plan from its row", async () => {
    const job = await jobOf(fixtures[0]!);
    const r = job.result as TprochResult;
    await page.goto(`${server.url}/jobs/${job.id}`);
    await page.getByTestId('result-banner').waitFor();
    expect(await page.getByTestId('result-line').textContent()).toBe(r.line);
    expect(Number(await page.getByTestId('result-geomean').getAttribute('data-value'))).toBeCloseTo(r.geomean, 12);
    expect(await page.getByTestId('result-banner').textContent()).toContain("Sledge's, not TPC results");
    expect(await rowsOf(page, 'query-table').count()).toBe(22);
    const q14 = page.locator('[data-testid="query-table"] tr[data-query="14"] td[data-seconds]');
    expect(Number(await q14.getAttribute('data-seconds'))).toBe(r.queries.find((q) => q.query === 14)!.seconds);
    expect(Number(await page.getByTestId('tproch-timeline').getAttribute('data-rows'))).toBe(1);
    await page.getByTestId('plan-q3').click();
    expect(await page.getByTestId('plan-text-q3').textContent()).toContain('for Q3');
    await shot(page, 'tproch-job-fixture');
    await shotOf(page.getByTestId('tproch-timeline'), 'tproch-timeline-fixture');
    // The Metrics tab opens for these runs as for TPROC-C's.
    await page.getByTestId('tab-metrics').click();
    await page.waitForURL(/view=metrics/);
  });

  it('jobs list shows the geomean and composite score columns; compare shows the query-by-query ratios with the slower queries marked', async () => {
    await page.goto(`${server.url}/jobs`);
    const row = page.locator(`tr[data-job-id="${fixtures[1]}"]`);
    await row.waitFor();
    const r1 = (await jobOf(fixtures[1]!)).result as TprochResult;
    expect(await row.locator('td[data-col="geomean"]').textContent()).toBe(r1.geomean.toFixed(5));
    expect(await row.locator('td[data-col="warehouses"]').textContent()).toBe('0.01');
    await page.goto(`${server.url}/compare?jobs=${fixtures.join(',')}`);
    await page.getByTestId('query-compare').waitFor({ timeout: 20_000 });
    expect(await rowsOf(page, 'query-compare').count()).toBe(22);
    const slower = await page.locator('[data-testid="query-compare"] td[data-verdict="slower"]').evaluateAll((tds) => tds.map((td) => Number(td.closest('tr')!.getAttribute('data-query'))).sort((a, b) => a - b));
    expect(slower).toEqual([9, 18, 21]);
    expect(Number(await page.getByTestId('ratio-q9-0').getAttribute('data-ratio'))).toBeCloseTo(2.5, 4);
    await page.getByTestId('query-ratio-chart').waitFor();
    await shot(page, 'tproch-compare-fixture');
  });
});

describe('TPROC-H on SQLite', () => {
  const runs: string[] = [];

  it('the server offers TPROC-H on SQLite', async () => {
    const caps = (await api<Capabilities>(server.url, 'GET', '/capabilities')).body;
    expect(caps.engines.find((e) => e.engine === 'sqlite')?.workloads).toContain('tproch');
  });

  it('builds SF 0.01 from the Schema page with TPROC-H picked', async () => {
    await pickSqlite(page, server.url, 'tproch-e2e.sqlite');
    await nav(page, 'Schema');
    await page.locator('input[data-workload="tproch"]').check();
    expect(await page.locator('#schema-h').textContent()).toBe('TPROC-H schema on SQLite');
    await page.getByTestId('sf-0.01').click();
    expect(await page.locator('[data-field="tproch.scaleFactor"]').inputValue()).toBe('0.01');
    expect(await page.locator('#f-tproch-scaleFactor-help').textContent()).toContain('non-standard');
    await fill(page, 'tproch.buildVus', '1');
    await shot(page, 'tproch-schema');
    const buildId = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, buildId, 300_000)).toBe('completed');
    const build = await jobOf(buildId);
    expect(build.workload).toBe('tproch');
    await shot(page, 'tproch-build-done');
  });

  it('runs a power test from the Run page: the timeline fills while live, the job page shows 22 query times and the geomean', async () => {
    await nav(page, 'Run');
    expect(await page.locator('#run-h').textContent()).toBe('TPROC-H driver on SQLite');
    await page.locator('[data-field="tproch.mode"]').selectOption('power');
    expect(await page.locator('#f-tproch-streams-help').textContent()).toContain('SF 0.01, 2 streams');
    await shot(page, 'tproch-run-form');
    const id = await startJob(page, 'start-run');
    runs.push(id);
    await page.getByTestId('tproch-timeline').waitFor({ timeout: 120_000 });
    await shot(page, 'tproch-run-live');
    expect(await waitForJobEnd(page, id, 600_000)).toBe('completed');
    const r = (await jobOf(id)).result as TprochResult;
    expect(r.mode).toBe('power');
    expect(r.queries).toHaveLength(22);

    await page.goto(`${server.url}/jobs/${id}`);
    await page.getByTestId('result-banner').waitFor();
    expect(await rowsOf(page, 'query-table').count()).toBe(22);
    const seconds = await page.locator('[data-testid="query-table"] td[data-seconds]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-seconds'))));
    expect(seconds).toHaveLength(22);
    expect(seconds.every((s) => Number.isFinite(s) && s >= 0)).toBe(true);
    expect(Number(await page.getByTestId('result-geomean').getAttribute('data-value'))).toBeCloseTo(r.geomean, 12);
    expect(await page.getByTestId('result-line').textContent()).toMatch(/^Geometric mean of query times returning rows \(\d+\) is \d+\.\d{5}$/);
    await page.getByTestId('plan-q1').click();
    await page.locator('[data-testid="plan-text-q1"], [data-testid="plan-none-q1"]').first().waitFor();
    await shot(page, 'tproch-job-page');
  });

  it('runs a second power test and compares the two query by query', async () => {
    await nav(page, 'Run');
    const id = await startJob(page, 'start-run');
    runs.push(id);
    expect(await waitForJobEnd(page, id, 600_000)).toBe('completed');
    await page.goto(`${server.url}/compare?jobs=${runs.join(',')}`);
    await page.getByTestId('query-compare').waitFor({ timeout: 20_000 });
    expect(await rowsOf(page, 'query-compare').count()).toBe(22);
    const [a, b] = await Promise.all(runs.map(async (j) => (await jobOf(j)).result as TprochResult));
    // The slowest query of the first run: its ratio is the second run's time over the first's (power: one execution each).
    const ok = (r: TprochResult) => r.queries.filter((x) => !x.error);
    const slowest = ok(a!).reduce((m, x) => (x.seconds > m.seconds ? x : m));
    const other = ok(b!).find((x) => x.query === slowest.query)!;
    expect(Number(await page.getByTestId(`ratio-q${slowest.query}-0`).getAttribute('data-ratio'))).toBeCloseTo(other.seconds / slowest.seconds, 6);
    await shot(page, 'tproch-compare');
  });
});
