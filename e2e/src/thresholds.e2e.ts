import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job } from '@sledge/protocol';
import { shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, jobCount, nav, startJob, waitForJobEnd } from './ui.js';
import { useSqliteTprocc } from './prebuilt.js';
import { openSession, closeSession } from './session.js';

/**
 * Thresholds from the Run page: a bad row is marked with the server's message
 * and nothing starts; a 3 s SQLite run with one passing and one failing
 * condition shows its verdict on the Run page, the job page and the job list.
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

describe('thresholds in the UI', () => {
  it('edits thresholds on the Run page and shows the verdict where the job is shown', async () => {
    await useSqliteTprocc(page, server.url, server.dataDir, 'thresholds.sqlite');

    await nav(page, 'Run');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.05');
    await page.getByTestId('add-threshold').click();
    await page.getByTestId('threshold-0').fill('nopm>0');
    await page.getByTestId('add-threshold').click();
    await page.getByTestId('threshold-1').fill('p95(neword)<fast');
    const before = await jobCount(server.url);
    await page.getByTestId('start-run').click();
    await expect.poll(() => page.locator('.threshold-row.has-error .field-error').textContent()).toContain('must be a number with an optional unit');
    expect(await jobCount(server.url)).toBe(before);

    await page.getByTestId('threshold-1').fill('p95(neword)<1us');
    const id = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, id, 60_000)).toBe('completed');
    const verdict = page.getByTestId('threshold-verdict');
    await expect.poll(() => verdict.textContent()).toContain('failed (1 of 2 held)');
    const rows = page.locator('[data-testid="threshold-results"] tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-ok')).toBe('true');
    expect(await rows.nth(1).getAttribute('data-ok')).toBe('false');
    await shotOf(page.getByTestId('threshold-results'), 'thresholds-run-page');
    const job = (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
    expect(job.passed).toBe(false);

    await page.goto(`${server.url}/jobs/${id}`);
    await expect.poll(() => page.getByTestId('threshold-verdict').textContent()).toContain('failed');
    await page.goto(`${server.url}/jobs`);
    await expect.poll(() => page.getByTestId('threshold-badge').first().textContent()).toBe('fail');
  });
});
