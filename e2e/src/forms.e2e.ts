import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { fill, jobCount, nav, pickSqlite, startJob, waitForJobEnd } from './ui.js';
import { closeSession, openSession } from './session.js';

/**
 * Forms in real Chromium against the built server: every field error at once,
 * at its field, worded with the field's label and found before any request;
 * and a SQLite 1-warehouse build whose progress bars end at exactly 100% and
 * never show more (nor 100% before every row is there).
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;
/** POST /api/v1/jobs requests the page sent. */
let jobPosts = 0;

beforeAll(async () => {
  ({ server, browser, page } = await openSession());
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/jobs') jobPosts++;
  });
  await pickSqlite(page, server.url, 'forms-e2e.sqlite');
});

afterAll(async () => {
  await closeSession({ browser, server });
});

/** The error shown under a field (its text), or null when none. */
async function fieldError(key: string): Promise<string | null> {
  const el = page.locator(`#f-${key.replace(/[^A-Za-z0-9_-]/g, '-')}-error`);
  return (await el.count()) ? await el.textContent() : null;
}

describe('field errors', () => {
  it('Run page: three bad values show three labelled errors at their fields at once, with no request and no job', async () => {
    await nav(page, 'Run');
    await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
    const jobsBefore = await jobCount(server.url);
    const postsBefore = jobPosts;
    await fill(page, 'tprocc.vus', '0');
    await fill(page, 'tprocc.rampup', '-1');
    await fill(page, 'tprocc.duration', '-2');
    await page.getByTestId('start-run').click();
    await page.locator('#f-tprocc-duration-error').waitFor({ timeout: 10_000 });

    expect(await fieldError('tprocc.vus')).toBe('Virtual users must be >= 1 (got 0)');
    expect(await fieldError('tprocc.rampup')).toMatch(/^Rampup.* must be >= 0 \(got -1\)$/);
    expect(await fieldError('tprocc.duration')).toMatch(/^Duration.* must be >= \S+ \(got -2\)$/);
    for (const key of ['tprocc.vus', 'tprocc.rampup', 'tprocc.duration']) {
      expect(await page.locator(`[data-field="${key}"]`).getAttribute('aria-invalid'), key).toBe('true');
    }
    // Only those three fields are marked, and no message speaks in API paths.
    expect(await page.locator('#run-form .field.has-error').count()).toBe(3);
    expect(await page.locator('#run-form').textContent()).not.toMatch(/tprocc\./);
    await shot(page, 'run-three-field-errors');

    // Found before the round trip: nothing was posted, nothing created.
    expect(jobPosts).toBe(postsBefore);
    expect(await jobCount(server.url)).toBe(jobsBefore);

    // Fixing one field clears its error only.
    await fill(page, 'tprocc.vus', '1');
    expect(await fieldError('tprocc.vus')).toBeNull();
    expect(await fieldError('tprocc.duration')).not.toBeNull();
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.5');
  });

  it('Schema page: warehouses 0 and build VUs 0 are both shown, labelled, and no job is created', async () => {
    await nav(page, 'Schema');
    const jobsBefore = await jobCount(server.url);
    const postsBefore = jobPosts;
    await fill(page, 'tprocc.warehouses', '0');
    await fill(page, 'tprocc.buildVus', '0');
    await page.getByTestId('build-schema').click();
    await page.locator('#f-tprocc-buildVus-error').waitFor({ timeout: 10_000 });
    expect(await fieldError('tprocc.warehouses')).toBe('Warehouses must be >= 1 (got 0)');
    expect(await fieldError('tprocc.buildVus')).toBe('Build virtual users must be >= 1 (got 0)');
    await shot(page, 'schema-two-field-errors');
    expect(jobPosts).toBe(postsBefore);
    expect(await jobCount(server.url)).toBe(jobsBefore);
  });
});

interface BarSeen {
  label: string;
  done: number;
  expected: number;
  percent: number;
  aria: string;
}

describe('build progress', () => {
  it('a SQLite 1-warehouse build ends at exactly 100% for every table and never shows more', async () => {
    await nav(page, 'Schema');
    await fill(page, 'tprocc.warehouses', '1');
    await fill(page, 'tprocc.buildVus', '1');
    // Watch every table bar while the build runs: the worst over-count and any 100% shown early.
    await page.evaluate(() => {
      const w = window as unknown as { __bars: { samples: number; partial: number; over: string[]; early: string[]; maxPercent: number } };
      w.__bars = { samples: 0, partial: 0, over: [], early: [], maxPercent: 0 };
      const look = () => {
        for (const li of Array.from(document.querySelectorAll('[data-testid="build-progress"] ul[aria-label="Rows per table"] li'))) {
          const done = Number(li.getAttribute('data-done'));
          const expected = Number(li.getAttribute('data-expected'));
          const percent = Number(li.getAttribute('data-percent'));
          const aria = li.querySelector('progress')?.getAttribute('aria-label') ?? '';
          const shown = Number(/(\d+)%$/.exec(aria)?.[1] ?? NaN);
          w.__bars.samples++;
          if (done > 0 && percent < 100) w.__bars.partial++;
          w.__bars.maxPercent = Math.max(w.__bars.maxPercent, percent, shown);
          if (expected > 0 && done > expected) w.__bars.over.push(`${aria} ${done}/${expected}`);
          if (shown === 100 && done < expected) w.__bars.early.push(`${aria} ${done}/${expected}`);
        }
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const buildId = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, buildId, 240_000)).toBe('completed');
    await page.getByTestId('build-progress').waitFor({ timeout: 10_000 });

    const bars = await page.$$eval('[data-testid="build-progress"] ul[aria-label="Rows per table"] li', (lis) =>
      lis.map((li) => ({
        label: li.querySelector('.bar-label')?.textContent ?? '',
        done: Number(li.getAttribute('data-done')),
        expected: Number(li.getAttribute('data-expected')),
        percent: Number(li.getAttribute('data-percent')),
        aria: li.querySelector('progress')?.getAttribute('aria-label') ?? '',
      })),
    );
    const tables = bars.map((b: BarSeen) => b.label).sort();
    expect(tables).toEqual(['customer', 'district', 'history', 'item', 'new_order', 'order_line', 'orders', 'stock', 'warehouse']);
    for (const b of bars as BarSeen[]) {
      expect(b.expected, b.label).toBeGreaterThan(0);
      expect(b.done, b.label).toBe(b.expected);
      expect(b.percent, b.label).toBe(100);
      expect(b.aria, b.label).toBe(`${b.label} 100%`);
    }
    const byTable = Object.fromEntries((bars as BarSeen[]).map((b) => [b.label, b.expected]));
    // TPROC-C's fixed sizes for one warehouse.
    expect(byTable).toMatchObject({ item: 100_000, warehouse: 1, district: 10, customer: 30_000, history: 30_000, orders: 30_000, new_order: 9_000, stock: 100_000 });
    expect(await page.getByTestId('build-percent').textContent()).toBe('100%');
    for (const p of await page.$$eval('[data-testid="build-progress"] ul[aria-label="Rows per table"] progress', (ps) => ps.map((x) => (x as HTMLProgressElement).value))) expect(p).toBe(1000);

    const seen = await page.evaluate(() => (window as unknown as { __bars: { samples: number; partial: number; over: string[]; early: string[]; maxPercent: number } }).__bars);
    expect(seen.samples).toBeGreaterThan(9);
    // The bars were seen mid-build, not only at the end.
    expect(seen.partial).toBeGreaterThan(0);
    expect(seen.over).toEqual([]);
    expect(seen.early).toEqual([]);
    expect(seen.maxPercent).toBe(100);
    await shot(page, 'schema-build-100');
  });
});
