import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TproccResult } from '@sledge/protocol';
import { chromium } from 'playwright-core';
import { SCREENSHOTS, launch, shot, type Chromium } from './browser.js';
import { startServer, type RunningServer } from './server.js';
import { closeSession } from './session.js';
import { jobToEnd } from './ui.js';

/**
 * The HTML report (issue 16 item 4) of a PostgreSQL run: downloaded with the
 * job page's Report button on a server that requires an API token (the
 * button fetches with the bearer token), then opened from disk (file://) in
 * a browser with the network off: the charts draw, nothing is requested.
 */

const DB = 'hdb_report_e2e';
const TOKEN = 'e2e-report-token-0123456789';
const SECRET = 'e2e-report-secret-pw';
const PG_TARGET = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: SECRET, database: DB, superuser: 'postgres', superuserPassword: 'e2e-su-pw-unused-with-trust' };

let server: RunningServer;
let browser: Chromium;
const tmp = mkdtempSync(join(tmpdir(), 'sledge-report-e2e-'));
let run: Job;
let second: Job;
let file = '';

const runJob = (body: unknown): Promise<Job> => jobToEnd(server.url, body, { token: TOKEN, timeoutMs: 240_000 });

beforeAll(async () => {
  server = await startServer({ env: { SLEDGE_TOKEN: TOKEN } });
  browser = await launch();
  await runJob({ type: 'delete', target: PG_TARGET }).catch(() => undefined);
  expect((await runJob({ type: 'build', target: PG_TARGET, tprocc: { warehouses: 1, buildVus: 1 } })).status).toBe('completed');
  run = await runJob({ type: 'run', target: PG_TARGET, label: 'report e2e', tprocc: { vus: 2, rampup: 0.1, duration: 0.4, tcRefreshSec: 2, timeProfile: true } });
  second = await runJob({ type: 'run', target: PG_TARGET, label: 'report e2e 1 VU', tprocc: { vus: 1, rampup: 0, duration: 0.2, tcRefreshSec: 2, timeProfile: true } });
}, 300_000);

afterAll(async () => {
  if (server) await runJob({ type: 'delete', target: PG_TARGET }).catch((e: unknown) => console.error('schema delete failed', e));
  await closeSession({ browser, server });
  rmSync(tmp, { recursive: true, force: true });
});

describe('HTML report of a PostgreSQL run', () => {
  it('downloads from the job page with the API token', async () => {
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    const page = await browser.page();
    await page.addInitScript((t) => localStorage.setItem('sledge.token', t), TOKEN);
    await page.goto(`${server.url}/jobs/${run.id}`);
    await page.getByTestId('report').waitFor();
    const download = page.waitForEvent('download');
    await page.getByTestId('report').click();
    const d = await download;
    expect(d.suggestedFilename()).toBe(`sledge-${run.id}.html`);
    file = join(tmp, d.suggestedFilename());
    await d.saveAs(file);
    await shot(page, 'report-jobpage');
    const html = readFileSync(file, 'utf8');
    expect(html).toContain((run.result as TproccResult).line);
    expect(html).not.toContain(SECRET);
    console.log(`report ${statSync(file).size} bytes`);
  });

  it('opens from disk with the network off and draws its charts', async () => {
    const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'], headless: true });
    try {
      for (const scheme of ['light', 'dark'] as const) {
        const ctx = await b.newContext({ viewport: { width: 1200, height: 900 }, colorScheme: scheme });
        await ctx.setOffline(true);
        const requested: string[] = [];
        await ctx.route('**/*', (route) => {
          const url = route.request().url();
          if (url.startsWith('file://')) return route.continue();
          requested.push(url);
          return route.abort();
        });
        const page = await ctx.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        await page.goto(`file://${file}`);
        for (const id of ['throughput', 'timing', 'ash', 'cpu']) {
          const chart = page.locator(`section#${id} figure.chart .svg.${scheme} svg`).first();
          await chart.waitFor({ state: 'visible' });
          const box = await chart.boundingBox();
          expect(box!.width, id).toBeGreaterThan(300);
          expect(box!.height, id).toBeGreaterThan(100);
          // Drawn, not empty: the axes plus a shape per series or transaction (the box plot of 5 transactions can be 10 paths in all).
          expect(await chart.locator('path').count(), id).toBeGreaterThanOrEqual(5);
          // The other scheme's rendering stays hidden.
          expect(await page.locator(`section#${id} figure.chart .svg.${scheme === 'light' ? 'dark' : 'light'} svg`).first().isVisible(), id).toBe(false);
        }
        await page.locator('section#ash td', { hasText: 'CPU' }).first().waitFor();
        await page.screenshot({ path: join(SCREENSHOTS, `report-pg-${scheme}.png`), fullPage: true });
        expect(requested).toEqual([]);
        expect(errors).toEqual([]);
        await ctx.close();
      }
    } finally {
      await b.close();
    }
  });

  it('downloads a comparison from the compare page', async () => {
    expect(second.status, JSON.stringify(second.error)).toBe('completed');
    const page = await browser.page();
    await page.goto(`${server.url}/compare?jobs=${run.id},${second.id}`);
    const button = page.getByTestId('compare-report');
    await expect.poll(() => button.isEnabled()).toBe(true);
    const download = page.waitForEvent('download');
    await button.click();
    const d = await download;
    expect(d.suggestedFilename()).toBe(`sledge-compare-${run.id}-${second.id}.html`);
    const path = join(tmp, d.suggestedFilename());
    await d.saveAs(path);
    const html = readFileSync(path, 'utf8');
    expect(html).toContain('Comparison of 2 TPROC-C jobs');
    expect(html).toContain('report e2e 1 VU');
    await shot(page, 'report-comparepage');
    // One run selected: no comparison to download.
    await page.goto(`${server.url}/compare?jobs=${run.id}`);
    expect(await page.getByTestId('compare-report').isDisabled()).toBe(true);
  });
});

