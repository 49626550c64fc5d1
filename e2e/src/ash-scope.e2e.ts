import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, pickSqlite, startJob, waitForJobEnd } from './ui.js';
import { copySqliteTprocc } from './prebuilt.js';
import { closeSession, openSession } from './session.js';

/**
 * The Run page's ASH scope choice (Advanced driver options > "Active session
 * history of the whole server"): left as it is, the job records
 * metrics.ashScope 'database'; checked, 'server'. SQLite target (a copy of
 * the run's prebuilt 1-warehouse schema), short runs.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;
const FILE = 'ash-scope.sqlite';

const scopeOf = async (id: string) => ((await api<Job>(server.url, 'GET', `/jobs/${id}`)).body.config as { metrics?: { ashScope?: string } }).metrics?.ashScope;

/** The run settings (1 VU, no rampup, 3 s) with the Advanced driver options open. */
async function runForm(): Promise<void> {
  await fill(page, 'tprocc.vus', '1');
  await fill(page, 'tprocc.rampup', '0');
  await fill(page, 'tprocc.duration', '0.05');
  const box = page.getByTestId('ash-scope-server');
  if (!(await box.isVisible())) await page.locator('details summary', { hasText: 'Advanced driver options' }).click();
  await box.waitFor();
}

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 900 } }));
  await copySqliteTprocc(server.dataDir, FILE);
  await pickSqlite(page, server.url, FILE);
}, 420_000); // the copy may wait for the run's prebuilt file (src/global-setup.ts)

afterAll(async () => {
  await closeSession({ browser, server });
});

describe('ASH scope on the Run page', () => {
  it("left unchecked, the run records metrics.ashScope 'database'", async () => {
    await nav(page, 'Run');
    await runForm();
    const box = page.getByTestId('ash-scope-server');
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('#run-ash-scope-help').textContent()).toContain("ASH samples only the target database's sessions");
    await shot(page, 'ash-scope-default');
    const id = await startJob(page, 'start-run');
    expect(await scopeOf(id)).toBe('database');
    expect(await waitForJobEnd(page, id, 120_000)).toBe('completed');
    expect(await scopeOf(id)).toBe('database');
  });

  it("checked (whole server), the run records metrics.ashScope 'server'", async () => {
    await page.getByTestId('edit-run-settings').click();
    await runForm();
    const box = page.getByTestId('ash-scope-server');
    await box.check();
    expect(await box.isChecked()).toBe(true);
    await shot(page, 'ash-scope-server');
    const id = await startJob(page, 'start-run');
    expect(await scopeOf(id)).toBe('server');
    expect(await waitForJobEnd(page, id, 120_000)).toBe('completed');
    // Edit and run of that job keeps its choice.
    await page.goto(`${server.url}/run?from=${id}`);
    await expect.poll(() => page.getByTestId('ash-scope-server').isChecked(), { timeout: 20_000 }).toBe(true);
  });
});
