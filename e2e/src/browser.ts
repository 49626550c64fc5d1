import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { REPO } from './server.js';

export const SCREENSHOTS = join(REPO, 'e2e/screenshots');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface Chromium {
  context: BrowserContext;
  /** A fresh, separate context (no shared storage) on a second profile-less browser. */
  freshContext: () => Promise<{ context: BrowserContext; close: () => Promise<void> }>;
  page: () => Promise<Page>;
  close: () => Promise<void>;
}

/** System Chromium via playwright-core, with a fresh user-data dir (never `playwright install`). */
export async function launch(): Promise<Chromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'sledge-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: ARGS,
    headless: true,
    viewport: { width: 1360, height: 900 },
  });
  const browsers: Browser[] = [];
  return {
    context,
    page: async () => context.pages()[0] ?? (await context.newPage()),
    freshContext: async () => {
      const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, headless: true });
      browsers.push(b);
      const c = await b.newContext({ viewport: { width: 1360, height: 900 } });
      return { context: c, close: () => b.close() };
    },
    close: async () => {
      await context.close();
      for (const b of browsers) await b.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Save a full-page screenshot to e2e/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  // A sticky header is drawn where the page is scrolled to: start full-page shots from the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Save a screenshot of one element (a chart, a table) to e2e/screenshots/<name>.png. */
export async function shotOf(locator: Locator, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await locator.scrollIntoViewIfNeeded();
  await locator.screenshot({ path });
  return path;
}

/** Save what the viewport shows (what a user sees without scrolling, from the top) to e2e/screenshots/<name>.png. */
export async function viewShot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path });
  return path;
}
