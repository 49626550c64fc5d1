import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TX_TYPES, type Capabilities, type Job, type LatencySample, type Tcount, type TproccResult } from '@sledge/protocol';
import { shot, shotOf, viewShot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, buildSqliteTprocc, chartPoints, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * The Run page while a run is live (the form folded to one line, the live
 * header, the charts above the fold at 1280x800, latency of every type, the
 * output following its tail), run again and edit-and-run from stored jobs,
 * the jobs list columns, compare with deltas and a configuration diff, the
 * Schema page per engine and an unavailable driver's install steps. SQLite
 * runs of 6 + 15 s keep it short.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;
let firstRun: string;
let againRun: string;
let editedRun: string;

const jobOf = async (id: string) => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
/** A TPROC-C run's result (these tests run TPROC-C only). */
const tproccResultOf = async (id: string): Promise<TproccResult> => (await jobOf(id)).result as TproccResult;
const tproccOf = (j: Job) => (j.config as { tprocc: Record<string, unknown> }).tprocc;

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 800 } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
});

describe('schema page per engine', () => {
  it("builds on SQLite, shows no other engine's build after a switch, and the SQLite build again after switching back", async () => {
    const buildId = await buildSqliteTprocc(page, server.url, 'runpage.sqlite', 180_000);

    await nav(page, 'Target');
    await page.locator('label[data-engine="postgresql"]').click();
    await nav(page, 'Schema');
    await expect.poll(() => page.locator('.page').textContent()).toContain('No PostgreSQL schema job started from this page yet.');
    expect(await page.locator('.job-panel').count()).toBe(0);
    expect(await page.locator('#schema-h').textContent()).toBe('TPROC-C schema on PostgreSQL');
    await shot(page, 'schema-switched-engine');

    await nav(page, 'Target');
    await page.locator('label[data-engine="sqlite"]').click();
    await nav(page, 'Schema');
    await expect.poll(() => page.locator('.job-panel').getAttribute('data-job-id')).toBe(buildId);
    expect(await page.locator('.job-panel').getAttribute('data-status')).toBe('completed');
  });
});

describe('run page while running', () => {
  it('folds the form into a summary, shows the live header and the charts above the fold, and keeps the output at its tail', async () => {
    await nav(page, 'Run');
    await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
    await fill(page, 'tprocc.vus', '2');
    await fill(page, 'tprocc.rampup', '0.1');
    await fill(page, 'tprocc.duration', '0.25');
    if (!(await page.locator('[data-field="tprocc.tcRefreshSec"]').isVisible())) await page.locator('details summary', { hasText: 'Advanced driver options' }).click();
    await fill(page, 'tprocc.tcRefreshSec', '2');
    firstRun = await startJob(page, 'start-run');

    // The form folds to one line naming engine, VUs, warehouses, rampup and duration.
    const summary = page.getByTestId('run-summary');
    await summary.waitFor({ timeout: 20_000 });
    expect(await page.locator('#run-form').isHidden()).toBe(true);
    await expect.poll(() => summary.textContent(), { timeout: 20_000 }).toMatch(/Running: SQLite 3\.\d+\.\d+ · 2 VUs · 1 warehouse · rampup 0\.1 min · 0\.25 min measured/);

    // The live header: stage, elapsed and remaining time, and NOPM/TPM once the counter has a sample.
    const header = page.getByTestId('run-header');
    await header.waitFor();
    await expect.poll(() => page.getByTestId('run-stage').textContent(), { timeout: 20_000 }).toMatch(/Rampup|Measuring/);
    await expect.poll(async () => Number((await page.getByTestId('live-nopm').textContent())!.replace(/,/g, '')), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(Number((await page.getByTestId('live-tpm').textContent())!.replace(/,/g, ''))).toBeGreaterThan(0);
    const remaining1 = await page.getByTestId('run-remaining').textContent();
    const bar1 = Number(await page.getByTestId('run-bar').getAttribute('aria-valuenow'));
    // The live status line names the engine version.
    expect(await page.locator('.job-status-line').textContent()).toMatch(/run · SQLite 3\.\d+\.\d+/);

    // The charts are above the fold at 1280x800.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="chart-client"]')?.getAttribute('data-points') ?? 0) > 5, undefined, { timeout: 30_000 });
    for (const id of ['chart-tcount', 'chart-client', 'chart-latency']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.y + box.height, `${id} bottom`).toBeLessThanOrEqual(800);
    }
    await page.waitForTimeout(2500);
    expect(Number(await page.getByTestId('run-bar').getAttribute('aria-valuenow'))).toBeGreaterThan(bar1);
    expect(await page.getByTestId('run-remaining').textContent()).not.toBe(remaining1);
    await viewShot(page, 'runpage-live-1280');

    await page.getByTestId('theme-toggle').click();
    await page.waitForTimeout(600);
    await viewShot(page, 'runpage-live-1280-dark');
    await page.getByTestId('theme-toggle').click();

    // The end: the result, the header gone, the summary still folded (Start again), the output at its tail.
    expect(await waitForJobEnd(page, firstRun, 90_000)).toBe('completed');
    await page.getByTestId('result-nopm').waitFor();
    expect(await page.getByTestId('run-header').count()).toBe(0);
    await expect.poll(() => summary.textContent()).toMatch(/Last run: SQLite/);
    expect(await page.getByTestId('start-run-again').count()).toBe(1);
    const log = page.getByRole('log', { name: 'Job output' });
    await page.waitForTimeout(1000);
    const pos = await log.evaluate((el) => ({ gap: el.scrollHeight - el.scrollTop - el.clientHeight, top: el.scrollTop }));
    expect(pos.top).toBeGreaterThan(0);
    expect(pos.gap).toBeLessThan(40);
    const out = (await api<{ lines: { text: string }[]; total: number }>(server.url, 'GET', `/jobs/${firstRun}/output?limit=10000`)).body;
    expect(out.lines.map((l) => l.text)).toContain('ALL VIRTUAL USERS COMPLETE');
    expect(await log.locator('.line .txt').last().textContent()).toBe(out.lines.at(-1)!.text);
    await shot(page, 'runpage-ended');

    // Latency of every transaction type at once (one percentile): the chart shows one line per type.
    const latency = (await api<LatencySample[]>(server.url, 'GET', `/jobs/${firstRun}/latency`)).body;
    const samplesOf = (t: string) => latency.filter((x) => (x.perType[t]?.count ?? 0) > 0).length;
    await expect.poll(() => chartPoints(page, 'chart-latency')).toBe(3 * samplesOf('neworder'));
    await page.getByTestId('latency-type').selectOption('all');
    await page.getByTestId('latency-pct').selectOption('p99');
    await expect.poll(() => chartPoints(page, 'chart-latency')).toBe(TX_TYPES.reduce((a, t) => a + samplesOf(t), 0));
    expect(TX_TYPES.filter((t) => samplesOf(t) > 0).length).toBe(5);
    await page.waitForTimeout(500);
    await shotOf(page.getByTestId('chart-latency').locator('xpath=..'), 'runpage-latency-all');

    // "Edit settings" opens the form again with the run's values.
    await page.getByTestId('edit-run-settings').click();
    expect(await page.locator('#run-form').isVisible()).toBe(true);
    expect(await page.locator('[data-field="tprocc.vus"]').inputValue()).toBe('2');
    expect(await page.getByTestId('run-summary').count()).toBe(0);
  });
});

describe('run again and edit and run', () => {
  it('runs a job again from its page after a confirmation, with the same configuration', async () => {
    await page.goto(`${server.url}/jobs/${firstRun}`);
    await page.getByTestId('result-nopm').waitFor({ timeout: 20_000 });
    await page.getByTestId(`rerun-${firstRun}`).click();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    expect(await page.getByTestId(`rerun-${firstRun}-summary`).textContent()).toBe('SQLite · 2 VUs · 1 warehouse · rampup 0.1 min · 0.25 min measured');
    await shot(page, 'job-run-again-confirm');
    await page.getByTestId(`rerun-${firstRun}-confirm`).click();
    await page.waitForURL((u) => /\/jobs\/[0-9A-F]{24}$/.test(u.pathname) && !u.pathname.endsWith(firstRun), { timeout: 20_000 });
    againRun = new URL(page.url()).pathname.split('/').pop()!;
    // Live on its own page: the header while it runs, then the result.
    await page.getByTestId('run-header').waitFor({ timeout: 20_000 });
    expect(await waitForJobEnd(page, againRun, 90_000)).toBe('completed');
    const [a, b] = [await jobOf(firstRun), await jobOf(againRun)];
    expect(b.type).toBe('run');
    expect(tproccOf(b)).toEqual(tproccOf(a));
    expect(b.config).toMatchObject({ target: (a.config as { target: unknown }).target });
  });

  it('loads a job into the Run page form from the jobs list and runs the edit', async () => {
    await nav(page, 'Jobs');
    const row = page.locator(`tr[data-job-id="${firstRun}"]`);
    await row.waitFor({ timeout: 20_000 });
    // The list's columns: VUs, warehouses, duration and the result.
    expect(await row.locator('[data-col="vus"]').textContent()).toBe('2');
    expect(await row.locator('[data-col="warehouses"]').textContent()).toBe('1');
    expect(await row.locator('[data-col="duration"]').textContent()).toBe('0.1 + 0.25 min');
    expect(Number((await row.locator('[data-col="nopm"]').textContent())!.replace(/[^\d]/g, ''))).toBe((await tproccResultOf(firstRun)).nopm);
    await shot(page, 'jobs-columns');

    await page.getByTestId(`edit-${firstRun}`).click();
    await page.waitForURL((u) => u.pathname === '/run', { timeout: 10_000 });
    expect(await page.getByTestId('loaded-from').textContent()).toContain(firstRun);
    expect(await page.locator('#run-form').isVisible()).toBe(true);
    expect(await page.locator('[data-field="tprocc.vus"]').inputValue()).toBe('2');
    expect(await page.locator('[data-field="tprocc.duration"]').inputValue()).toBe('0.25');
    await fill(page, 'tprocc.vus', '3');
    await fill(page, 'tprocc.duration', '0.15');
    if (!(await page.locator('#run-label').isVisible())) await page.locator('details summary', { hasText: 'Advanced driver options' }).click();
    await page.locator('#run-label').fill('edited: 3 VUs');
    editedRun = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, editedRun, 90_000)).toBe('completed');
    const e = await jobOf(editedRun);
    expect(tproccOf(e)).toMatchObject({ vus: 3, duration: 0.15, rampup: 0.1 });
    expect(e.label).toBe('edited: 3 VUs');
    expect(await page.getByTestId('loaded-from').count()).toBe(0);
  });
});

describe('compare', () => {
  it('shows NOPM and TPM deltas, latency per transaction and the configuration diff', async () => {
    await page.goto(`${server.url}/jobs?type=run`);
    for (const id of [firstRun, editedRun]) await page.getByLabel(`Select job ${id} for compare`).check();
    await page.getByTestId('compare-selected').click();
    await page.getByTestId('compare-table').waitFor({ timeout: 20_000 });
    const [a, b] = [await tproccResultOf(firstRun), await tproccResultOf(editedRun)];
    const sign = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±');
    const pct = (v: number, base: number) => `${sign(v - base)}${Math.abs(((v - base) / base) * 100).toFixed(1)}%`;
    const nopmDelta = await page.getByTestId('delta-nopm').textContent();
    expect(nopmDelta).toBe(`${sign(b.nopm - a.nopm)}${Math.abs(b.nopm - a.nopm).toLocaleString('en-US')} (${pct(b.nopm, a.nopm)})`);
    expect(await page.getByTestId('delta-tpm').textContent()).toBe(`${sign(b.tpm - a.tpm)}${Math.abs(b.tpm - a.tpm).toLocaleString('en-US')} (${pct(b.tpm, a.tpm)})`);

    // The configuration diff lists exactly the settings that differ.
    const diff = page.getByTestId('config-diff');
    await diff.waitFor();
    const keys = await diff.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
    expect(keys).toEqual(['tprocc.vus', 'tprocc.duration', 'label', 'seed']);
    expect(await diff.locator('tr[data-key="tprocc.vus"] td').allTextContents()).toEqual(['2', '3']);

    // Latency per transaction, overlaid; series start without the counter's zero baseline.
    const withCalls = async (t: string) => {
      let n = 0;
      for (const id of [firstRun, editedRun]) n += (await api<LatencySample[]>(server.url, 'GET', `/jobs/${id}/latency`)).body.filter((x) => (x.perType[t]?.count ?? 0) > 0).length;
      return n;
    };
    await expect.poll(() => chartPoints(page, 'compare-latency')).toBe(await withCalls('neworder'));
    await page.getByTestId('compare-latency-type').selectOption('payment');
    await expect.poll(() => chartPoints(page, 'compare-latency')).toBe(await withCalls('payment'));
    // The NOPM overlay leaves out each counter's first sample (a zero baseline, no measurement) and zeros after the end.
    let expected = 0;
    for (const id of [firstRun, editedRun]) {
      const e = (await api<Tcount>(server.url, 'GET', `/jobs/${id}/tcount`)).body.engine;
      expect(e[0]).toMatchObject({ tpm: 0, nopm: 0 });
      let to = e.length;
      while (to > 1 && e[to - 1]!.tpm === 0 && e[to - 1]!.nopm === 0) to--;
      expected += to - 1;
    }
    expect(await chartPoints(page, 'compare-nopm')).toBe(expected);
    await page.waitForTimeout(800);
    await shot(page, 'compare-diff');
    await page.getByTestId('theme-toggle').click();
    await page.waitForTimeout(800);
    await shot(page, 'compare-diff-dark');
    await page.getByTestId('theme-toggle').click();
  });
});

describe('targets page', () => {
  it("shows an unavailable driver's reason and numbered install steps with commands in monospace", async () => {
    const caps = (await api<Capabilities>(server.url, 'GET', '/capabilities')).body;
    const missing = caps.engines.filter((e) => !e.available && e.install);
    await nav(page, 'Target');
    await page.locator('.engine-card').first().waitFor();
    expect(await page.locator('.engine-card.unavailable').count()).toBe(caps.engines.filter((e) => !e.available).length);
    // Every card stays compact (a reason or a not-offered note is cut to its first sentence, two lines at most).
    for (const e of caps.engines) expect((await page.locator(`label[data-engine="${e.engine}"]`).boundingBox())!.height, e.engine).toBeLessThan(140);
    for (const e of missing) {
      await page.getByTestId(`install-${e.engine}`).click();
      const help = page.getByTestId('engine-help');
      await help.waitFor();
      expect(await help.locator('.engine-help-reason').textContent()).toBe(e.reason);
      const steps = (e.install!.match(/^\d+\. /gm) ?? []).length;
      expect(await help.locator('ol > li').count()).toBe(steps);
      if (e.install!.includes('`')) expect(await help.locator('code').count()).toBeGreaterThan(0);
      const card = page.locator(`label[data-engine="${e.engine}"]`);
      expect((await card.boundingBox())!.height).toBeLessThan(140);
      await shotOf(page.locator('fieldset.engines'), `targets-install-${e.engine}`);
      await page.getByTestId(`install-${e.engine}`).click();
      expect(await help.count()).toBe(0);
    }
  });
});
