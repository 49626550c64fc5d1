import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job } from '@sledge/protocol';
import { shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { jobToEnd } from './ui.js';
import { copySqliteTprocc } from './prebuilt.js';
import { openSession, closeSession } from './session.js';

/**
 * The Compare page's "What changed" card (docs/compare.md): two SQLite runs
 * whose target PRAGMA synchronous differs; the card names the pragma with
 * both values in "Settings that differ" and says why "Statements whose time
 * moved" has nothing (SQLite keeps no statement counters).
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;

const runToEnd = (body: Record<string, unknown>): Promise<Job> => jobToEnd(server.url, body);

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 900 } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
});

describe('Compare: what changed between two runs', () => {
  it('shows the settings that differ and why there are no statement statistics', async () => {
    const file = 'changes-e2e.sqlite';
    await copySqliteTprocc(server.dataDir, file);
    const run = (synchronous: string) => ({ type: 'run', target: { engine: 'sqlite', file, synchronous }, tprocc: { vus: 1, rampup: 0, duration: 0.05 } });
    const a = await runToEnd(run('normal'));
    const b = await runToEnd(run('full'));
    expect([a.status, b.status]).toEqual(['completed', 'completed']);

    await page.goto(`${server.url}/compare?jobs=${a.id},${b.id}`);
    const card = page.locator(`[data-testid="run-changes"][data-a="${a.id}"][data-b="${b.id}"]`);
    await card.waitFor({ timeout: 30_000 });
    const row = card.locator('[data-testid="settings-diff"] tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getAttribute('data-name')).toBe('synchronous');
    expect(await row.locator('th').textContent()).toBe('synchronous');
    expect(await row.locator('td[data-side="a"]').textContent()).toContain('NORMAL');
    expect(await row.locator('td[data-side="b"]').textContent()).toContain('FULL');
    expect(await card.getByRole('heading', { name: 'Settings that differ' }).count()).toBe(1);
    expect(await card.getByRole('heading', { name: 'Statements whose time moved' }).count()).toBe(1);
    expect(await card.getByTestId('statements-unavailable').textContent()).toBe(`job ${a.id}: not available: sqlite keeps no per-statement counters`);
    // Neither run has repeats in a profile: no verdict, and the card says how to get one.
    const verdict = card.getByTestId('verdict');
    expect(await verdict.getAttribute('data-verdict')).toBe('unknown');
    expect(await verdict.textContent()).toContain('neither run has a measured spread');
    await shotOf(card, 'compare-what-changed');
  });
});
