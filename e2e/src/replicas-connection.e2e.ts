import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type Chromium } from './browser.js';
import { startNats, startReplica, type RunningNats, type RunningReplica } from './nats.js';
import type { RunningServer } from './server.js';
import { openSession, closeSession } from './session.js';

/**
 * The Replicas page when things end (no database): a replica stopped
 * cleanly (SIGTERM) shows as left, not lost; nats-server killed turns the
 * page's Connection to "disconnected — reconnecting" with an alert, and
 * "authenticated" is no longer shown as a live state.
 */

const TOKEN = 'e2e-conn-T0ken';
let nats: RunningNats;
let server: RunningServer;
let browser: Chromium;
let page: Page;
let replica: RunningReplica | null = null;

beforeAll(async () => {
  nats = await startNats(TOKEN);
  ({ server, browser, page } = await openSession({ server: { env: { SLEDGE_NATS_URL: nats.url, SLEDGE_NATS_TOKEN: TOKEN } } }));
});

afterAll(async () => {
  await replica?.stop();
  await closeSession({ browser, server });
  await nats?.stop();
});

describe('Replicas page: a clean leave and a lost NATS connection', () => {
  it('a replica stopped with SIGTERM shows as left', async () => {
    replica = startReplica('leaver', nats.url, TOKEN);
    await page.goto(`${server.url}/replicas`);
    const row = page.locator('[data-testid="replicas-table"] tr[data-replica="leaver"]');
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    expect(await page.getByTestId('replicas-connection').textContent()).toContain('connected');
    await replica.stop();
    replica = null;
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 10_000 }).toBe('left');
    expect(await row.locator('.pill').textContent()).toContain('left');
    expect(await page.getByTestId('replicas-counts').textContent()).toContain('0 lost · 1 left');
    await shot(page, 'replicas-left');
  });

  it('nats-server killed: the page says disconnected — reconnecting, with an alert', async () => {
    await nats.kill();
    await expect.poll(() => page.getByTestId('replicas-connection').getAttribute('data-connection'), { timeout: 15_000 }).toBe('reconnecting');
    expect(await page.getByTestId('replicas-connection').textContent()).toContain('disconnected — reconnecting');
    expect(await page.getByTestId('replicas-connection-lost').textContent()).toMatch(/lost its connection to NATS[^]*\(disconnected from 127\.0\.0\.1:\d+\)/);
    expect(await page.getByTestId('replicas-auth').textContent()).toContain('(when connected)');
    await shot(page, 'replicas-nats-lost');
  });
});
