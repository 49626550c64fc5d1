import type { Page } from 'playwright-core';
import { launch, type Chromium } from './browser.js';
import { startServer, type RunningServer } from './server.js';

/** What every browser test file holds: the built server, system Chromium and its first page. */
export interface Session {
  server: RunningServer;
  browser: Chromium;
  page: Page;
}

export interface SessionOptions {
  /** Passed to startServer (data dir, environment). */
  server?: Parameters<typeof startServer>[0];
  /** The page's viewport; Chromium's default (1360x900) when absent. */
  viewport?: { width: number; height: number };
}

/**
 * Start the server, launch Chromium and open its page, with page errors
 * logged to the test's output (a browser test's usual set-up, in one place).
 * The server is stopped again when Chromium fails to start.
 */
export async function openSession(opts: SessionOptions = {}): Promise<Session> {
  const server = await startServer(opts.server);
  try {
    const browser = await launch();
    const page = await browser.page();
    if (opts.viewport) await page.setViewportSize(opts.viewport);
    page.on('pageerror', (e) => console.error('pageerror', e.message));
    return { server, browser, page };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** Close Chromium, then stop the server (either may be absent when set-up failed). */
export async function closeSession(s: { browser?: Chromium; server?: RunningServer }): Promise<void> {
  await s.browser?.close();
  await s.server?.stop();
}
