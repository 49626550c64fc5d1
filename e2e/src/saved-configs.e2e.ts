import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * Saved configurations are (target, workload, options): saving one from the
 * forms keeps the workload chosen on the Schema and Run pages with its
 * options (TPROC-H's and CH-benCHmark's too), and loading it brings that
 * workload and its values back. SQLite only, no job is run.
 */

type Saved = { id: number; name: string; workload: string; options: Record<string, unknown>; target: Record<string, unknown> };

let server: RunningServer;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  ({ server, browser, page } = await openSession());
  await page.goto(`${server.url}/targets`);
  await page.locator('label[data-engine="sqlite"]').click();
});

afterAll(async () => {
  await closeSession({ browser, server });
});

async function saveAs(name: string): Promise<void> {
  await nav(page, 'Target');
  await page.locator('#config-name').fill(name);
  await page.getByTestId('save-config').click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: `Saved “${name}”` }).count(), { timeout: 10_000 }).toBe(1);
}

async function load(label: string): Promise<void> {
  await nav(page, 'Target');
  await page.locator('#config-select').selectOption({ label });
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: `Loaded “${label.split(' (')[0]!}”` }).count(), { timeout: 10_000 }).toBe(1);
}

const value = (field: string) => page.locator(`[data-field="${field}"]`).inputValue();
const checked = (workload: string) => page.locator(`input[data-workload="${workload}"]`).isChecked();

describe('saved configurations keep their workload', () => {
  it('saves TPROC-H and CH-benCHmark configurations with their options and loads each back with its workload', async () => {
    // TPROC-H: a scale factor (Schema page) and the throughput test (Run page).
    await nav(page, 'Run');
    await page.locator('input[data-workload="tproch"]').check();
    await page.locator('[data-field="tproch.mode"]').selectOption('throughput');
    await nav(page, 'Schema');
    await fill(page, 'tproch.scaleFactor', '0.05');
    await saveAs('e2e h');

    // CH-benCHmark: TPROC-C's VUs and the analytic streams.
    await nav(page, 'Run');
    await page.locator('input[data-workload="chbench"]').check();
    await fill(page, 'tprocc.vus', '3');
    await fill(page, 'chbench.analyticStreams', '2');
    await saveAs('e2e ch');

    const saved = (await api<Saved[]>(server.url, 'GET', '/configs')).body;
    expect(saved.map((c) => [c.name, c.workload])).toEqual([
      ['e2e ch', 'chbench'],
      ['e2e h', 'tproch'],
    ]);
    const [ch, h] = saved;
    expect(h!.options).toMatchObject({ scaleFactor: 0.05, mode: 'throughput' });
    expect(h!.target).toMatchObject({ engine: 'sqlite', file: 'tproch.sqlite' });
    expect(ch!.options).toMatchObject({ analyticStreams: 2, tprocc: { vus: 3 } });
    expect(ch!.target).toMatchObject({ engine: 'sqlite', file: 'chbench.sqlite' });

    // Back on TPROC-C with other values, each loads with its own workload and values.
    await nav(page, 'Run');
    await page.locator('input[data-workload="tprocc"]').check();
    await load('e2e h (sqlite, TPROC-H)');
    await nav(page, 'Run');
    await expect.poll(() => checked('tproch')).toBe(true);
    await expect.poll(() => value('tproch.mode')).toBe('throughput');
    await nav(page, 'Schema');
    await expect.poll(() => value('tproch.scaleFactor')).toBe('0.05');
    await shot(page, 'saved-config-tproch-loaded');

    await load('e2e ch (sqlite, CH-benCHmark)');
    await nav(page, 'Run');
    await expect.poll(() => checked('chbench')).toBe(true);
    await expect.poll(() => value('tprocc.vus')).toBe('3');
    await expect.poll(() => value('chbench.analyticStreams')).toBe('2');
    await nav(page, 'Target');
    await expect.poll(() => value('target.file')).toMatch(/chbench\.sqlite$/);
  });

  it("loads a configuration of the older shape ({ name, target, tprocc }, an older client's) as TPROC-C", async () => {
    const r = await api<Saved>(server.url, 'POST', '/configs', { name: 'e2e old', target: { engine: 'sqlite', file: 'old.sqlite' }, tprocc: { vus: 5 } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ workload: 'tprocc', options: { vus: 5 } });
    await page.goto(`${server.url}/targets`);
    await load('e2e old (sqlite, TPROC-C)');
    await expect.poll(() => value('target.file')).toMatch(/old\.sqlite$/);
    await nav(page, 'Run');
    await expect.poll(() => checked('tprocc')).toBe(true);
    await expect.poll(() => value('tprocc.vus')).toBe('5');
  });
});
