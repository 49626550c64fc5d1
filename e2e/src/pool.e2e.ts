import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job } from '@sledge/protocol';
import { shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, pickSqlite, startJob, waitForJobEnd } from './ui.js';
import { copySqliteTprocc } from './prebuilt.js';
import { closeSession, openSession } from './session.js';

/**
 * The connect pool from the Target page in real Chromium: a HammerDB cpool
 * XML file (SQLite flavour: two database files) imported with the page's
 * button, a timed run from the Run page, and the result's per-connection
 * client TPM table on the job.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;
const files = ['pool-e2e-1.sqlite', 'pool-e2e-2.sqlite'];

beforeAll(async () => {
  ({ server, browser, page } = await openSession());
  for (const file of files) await copySqliteTprocc(server.dataDir, file);
}, 420_000); // the copy may wait for the run's prebuilt file (src/global-setup.ts)

afterAll(async () => {
  await closeSession({ browser, server });
});

describe('connect pool', () => {
  it('imports a cpool XML on the Target page, runs round_robin over two databases, shows client TPM per connection', async () => {
    const xml = `<connpool><connections>${files.map((f, i) => `<c${i + 1}><sqlite_file>${f}</sqlite_file></c${i + 1}>`).join('')}</connections><sprocs>${['neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus']
      .map((o) => `<${o}><connections>c1 c2</connections><policy>round_robin</policy></${o}>`)
      .join('')}</sprocs></connpool>`;
    const file = join(mkdtempSync(join(tmpdir(), 'sledge-e2e-pool-')), 'sqlitecpool.xml');
    writeFileSync(file, xml);
    await pickSqlite(page, server.url, files[0]!);
    await page.getByTestId('pool-file').setInputFiles(file);
    await page.getByTestId('pool-connections').waitFor();
    expect(await page.getByTestId('pool-connections').locator('tbody tr').count()).toBe(2);
    expect(await page.getByLabel('delivery policy').inputValue()).toBe('round_robin');
    await shotOf(page.getByTestId('pool-editor'), 'pool-editor');

    await nav(page, 'Run');
    const driver = page.locator('[data-field="tprocc.driver"]');
    if (await driver.count()) await driver.selectOption('timed');
    await fill(page, 'tprocc.vus', '2');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.1');
    const id = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, id, 120_000)).toBe('completed');
    await page.goto(`${server.url}/jobs/${id}`);
    const table = page.getByTestId('pool-result');
    await table.waitFor({ timeout: 30_000 });
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows.map((r) => r.slice(0, 2))).toEqual(['c1', 'c2', 'al']);
    await shotOf(page.getByTestId('result-banner'), 'pool-result');
    const job = (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
    const res = job.result as { targets: { name: string; sessions: number; transactions: number }[] };
    expect(res.targets.map((t) => [t.name, t.sessions])).toEqual([
      ['c1', 2],
      ['c2', 2],
    ]);
    for (const t of res.targets) expect(t.transactions).toBeGreaterThan(0);
  });
});
