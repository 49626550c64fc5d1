import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job, ProfileDetail } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, chartPoints, fill, nav, startJob } from './ui.js';
import { useSqliteTprocc } from './prebuilt.js';
import { openSession, closeSession } from './session.js';

/**
 * HammerDB's autopilot from the Run page: a VU sequence typed in the advanced
 * options queues one timed run per VU count as one performance profile; the
 * page follows each run as it starts, a bad sequence is refused at its field
 * with nothing queued, and the Compare page plots the profile with its fit.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 1000 } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
});

const jobTotal = async () => (await api<{ total: number }>(server.url, 'GET', '/jobs?limit=1')).body.total;

describe('VU sequence (autopilot) on the Run page', () => {
  it('queues one run per VU count as one profile, follows each run, and the Compare page fits them', async () => {
    await useSqliteTprocc(page, server.url, server.dataDir, 'autopilot-e2e.sqlite');

    await nav(page, 'Run');
    await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.05');
    await page.getByText('Advanced driver options').click();
    // A bad sequence: said at its field, and no job is queued.
    const before = await jobTotal();
    await fill(page, 'vuSequence', '1 x 3');
    await page.getByTestId('start-run').click();
    await expect.poll(() => page.locator('.field-error').allTextContents()).toContain('VU sequence: "x" is not a whole number of VUs of 1 or more');
    expect(await jobTotal()).toBe(before);

    await fill(page, 'vuSequence', '1 2 3');
    expect(await page.getByTestId('start-run').textContent()).toBe('Start sequence');
    const first = await startJob(page, 'start-run');
    const status = page.getByTestId('vu-sequence-status');
    await expect.poll(() => status.textContent()).toMatch(/^VU sequence, profile (\d+): run 1 of 3 shown below/);
    const profileId = Number(/profile (\d+)/.exec((await status.textContent()) ?? '')![1]);
    // The page moves on to each next run when the one it shows ends.
    await expect.poll(() => status.textContent(), { timeout: 120_000 }).toMatch(/run 3 of 3 shown below/);
    // The profile holds the three completed runs (the panel shows the third once its snapshot arrives).
    const completed = async () => (await api<ProfileDetail>(server.url, 'GET', `/profiles/${profileId}`)).body.jobs?.length ?? 0;
    await expect.poll(completed, { timeout: 120_000, interval: 500 }).toBe(3);
    await page.locator('.job-panel[data-status="completed"]').waitFor({ timeout: 30_000 });
    await shot(page, 'run-vu-sequence');

    const profile = (await api<ProfileDetail>(server.url, 'GET', `/profiles/${profileId}`)).body;
    expect(profile.jobs.map((j) => j.activeVus).sort()).toEqual([1, 2, 3]);
    const firstJob = (await api<Job>(server.url, 'GET', `/jobs/${first}`)).body;
    expect([firstJob.status, firstJob.label, firstJob.profileId]).toEqual(['completed', '1 VU', profileId]);

    await page.getByRole('link', { name: 'Compare the profile' }).click();
    await page.getByTestId('scalability-summary').waitFor({ timeout: 30_000 });
    await expect.poll(() => chartPoints(page, 'scalability-chart'), { timeout: 20_000 }).toBeGreaterThan(3);
    expect(await page.getByTestId('scalability-steps').locator('tbody tr').count()).toBe(3);
  });
});
