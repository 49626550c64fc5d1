import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job, TproccResult } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { useSqliteTprocc } from './prebuilt.js';
import { openSession, closeSession } from './session.js';

/**
 * The Run page's transaction mix weights on SQLite: the "New order only"
 * preset, the shares and the non-standard note as typed, a 2-VU run that
 * records the mix, and the job page's result banner saying NOPM is not
 * comparable.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 800 } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
});

describe('transaction mix weights', () => {
  it('runs new orders only from the Run page and flags the mix on the job page', async () => {
    await useSqliteTprocc(page, server.url, server.dataDir, 'mix-e2e.sqlite');

    await nav(page, 'Run');
    await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
    await fill(page, 'tprocc.vus', '2');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.1');
    const status = page.getByTestId('mix-status');
    expect(await status.getAttribute('data-standard')).toBe('true');
    expect(await status.textContent()).toContain("NEWORD 43.5% · PAYMENT 43.5% · DELIVERY 4.3% · SLEV 4.3% · OSTAT 4.3% — HammerDB's standard mix");
    await page.getByTestId('mix-neworder-only').click();
    expect(await page.locator('[data-field="tprocc.mix.neworder"]').inputValue()).toBe('100');
    expect(await page.locator('[data-field="tprocc.mix.payment"]').inputValue()).toBe('0');
    await expect.poll(() => status.getAttribute('data-standard')).toBe('false');
    expect(await status.textContent()).toContain("NEWORD 100.0% · PAYMENT 0.0%");
    expect(await status.textContent()).toContain("not HammerDB's standard mix: NOPM is not comparable with standard runs");
    await shot(page, 'mix-run-form');

    const runId = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, runId, 120_000)).toBe('completed');
    const job = (await api<Job>(server.url, 'GET', `/jobs/${runId}`)).body;
    const r = job.result as TproccResult;
    expect(r.nopm).toBeGreaterThan(0);
    expect(r.mix).toEqual({ neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 });
    expect(r.standardMix).toBe(false);

    await page.goto(`${server.url}/jobs/${runId}`);
    await page.getByTestId('result-nopm').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('result-mix').textContent()).toBe(
      "Non-standard transaction mix (neworder 100, payment 0, delivery 0, stocklevel 0, orderstatus 0): not HammerDB's 10/10/1/1/1, so this NOPM is not comparable with HammerDB's standard runs.",
    );
    await shot(page, 'mix-job-page');

    // Back on the Run page, the HammerDB preset restores the standard mix.
    await nav(page, 'Run');
    await page.getByTestId('mix-standard').click();
    await expect.poll(() => page.getByTestId('mix-status').getAttribute('data-standard')).toBe('true');
  });
});
