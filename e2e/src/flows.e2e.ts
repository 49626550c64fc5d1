import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job, Tcount } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, chartPoints, fill, jobCount, nav, pickSqlite, startJob, waitForJobEnd } from './ui.js';
import { pgTarget } from './targets.js';
import { closeSession, openSession } from './session.js';

/**
 * The main flows in real Chromium against the built server: configure ->
 * build 1 warehouse -> run 2 VUs for 30 s -> live chart grows -> result
 * banner -> the permalink shows the same NOPM in a fresh browser; on SQLite
 * and on PostgreSQL. Then field errors, the jobs list and compare.
 */

const PG_TARGET = pgTarget('sledge_e2e_pg');

let server: RunningServer;
let browser: Chromium;
let page: Page;
const runs: Record<string, { id: string; nopm: number }> = {};
let sockets = 0;

beforeAll(async () => {
  ({ server, browser, page } = await openSession());
  page.on('websocket', () => sockets++);
});

afterAll(async () => {
  await closeSession({ browser, server });
});

async function buildAndRun(engine: string, prefix: string, opts: { dropSocketMidRun?: boolean } = {}) {
  // Schema: build 1 warehouse.
  await nav(page, 'Schema');
  await fill(page, 'tprocc.warehouses', '1');
  await fill(page, 'tprocc.buildVus', '1');
  const buildId = await startJob(page, 'build-schema');
  await page.getByTestId('build-progress').waitFor({ timeout: 60_000 });
  // Screenshot mid-build: once some table has rows and the build is not done.
  await page
    .waitForFunction(() => Array.from(document.querySelectorAll('[data-testid="build-progress"] progress')).some((p) => (p as HTMLProgressElement).value > 100 && (p as HTMLProgressElement).value < 1000), undefined, { timeout: 60_000, polling: 200 })
    .catch(() => undefined);
  await shot(page, `${prefix}-schema-building`);
  expect(await waitForJobEnd(page, buildId, 180_000)).toBe('completed');
  await shot(page, `${prefix}-schema-built`);

  // Check the schema: the check items are listed.
  const checkId = await startJob(page, 'check-schema');
  expect(await waitForJobEnd(page, checkId, 120_000)).toBe('completed');
  await page.getByTestId('check-list').waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('check-list').textContent()).toMatch(/All \d+ checks passed/);
  await shot(page, `${prefix}-schema-checked`);

  // Run: 2 VUs, rampup 0, duration 0.5 (30 s).
  await nav(page, 'Run');
  await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
  await fill(page, 'tprocc.vus', '2');
  await fill(page, 'tprocc.rampup', '0');
  await fill(page, 'tprocc.duration', '0.5');
  const jobId = await startJob(page, 'start-run');
  expect(await page.getByTestId('job-link').textContent()).toBe(`job ${jobId}`);

  // The live chart gains points.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="chart-client"]')?.getAttribute('data-points') ?? 0) > 0, undefined, { timeout: 60_000 });
  const first = await chartPoints(page, 'chart-client');
  if (opts.dropSocketMidRun) {
    // Drop the WebSocket as a network failure would: the client reconnects with backoff and resumes by seq.
    await page.evaluate(() => (globalThis as unknown as { __sledgeLive: { dropConnection(): void } }).__sledgeLive.dropConnection());
    await page.waitForFunction(() => document.querySelector('[data-testid="connection"]')?.getAttribute('data-state') === 'open', undefined, { timeout: 20_000 });
  }
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="chart-client"]')?.getAttribute('data-points') ?? 0) > n, first, { timeout: 30_000 });
  await page.waitForTimeout(3000);
  await shot(page, `${prefix}-run-live`);
  expect(await chartPoints(page, 'chart-client')).toBeGreaterThan(first);

  // The result banner.
  await page.getByTestId('result-nopm').waitFor({ timeout: 120_000 });
  const nopm = Number(await page.getByTestId('result-nopm').getAttribute('data-value'));
  expect(nopm).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('result-line').textContent()).toMatch(new RegExp(`TEST RESULT : System achieved ${nopm} NOPM from \\d+ ${engine} TPM`));
  expect(await waitForJobEnd(page, jobId, 60_000)).toBe('completed');
  await page.waitForTimeout(500);
  await shot(page, `${prefix}-run-result`);
  return { jobId, nopm };
}

/** Open the permalink in a separate browser (no shared state) and read the NOPM it shows. */
async function permalinkNopm(jobId: string, prefix: string): Promise<number> {
  const fresh = await browser.freshContext();
  try {
    const p = await fresh.context.newPage();
    await p.goto(`${server.url}/jobs/${jobId}`);
    await p.getByTestId('result-nopm').waitFor({ timeout: 30_000 });
    await p.waitForFunction(() => Number(document.querySelector('[data-testid="chart-tcount"]')?.getAttribute('data-points') ?? 0) > 0, undefined, { timeout: 30_000 });
    await p.waitForTimeout(800);
    await shot(p, `${prefix}-permalink`);
    return Number(await p.getByTestId('result-nopm').getAttribute('data-value'));
  } finally {
    await fresh.close();
  }
}

describe('SQLite', () => {
  it('configures, builds, runs live, shows the result and the same NOPM on the permalink', async () => {
    await pickSqlite(page, server.url, 'e2e.sqlite');
    await page.getByTestId('test-connection').click();
    await expect.poll(() => page.getByTestId('test-result').textContent(), { timeout: 20_000 }).toMatch(/Connected: 3\.\d+/);
    await shot(page, 'sqlite-targets');

    // Save the configuration, change a field, load it back.
    await page.locator('#config-name').fill('e2e sqlite');
    await page.getByTestId('save-config').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count(), { timeout: 10_000 }).toBe(1);
    await fill(page, 'target.file', 'other.sqlite');
    await page.locator('#config-select').selectOption({ label: 'e2e sqlite (sqlite, TPROC-C)' });
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => page.locator('[data-field="target.file"]').inputValue()).toMatch(/e2e\.sqlite$/);
    await shot(page, 'sqlite-config-loaded');

    const t0 = Date.now();
    const r = await buildAndRun('SQLite', 'sqlite', { dropSocketMidRun: true });
    runs['sqlite'] = { id: r.jobId, nopm: r.nopm };
    console.log(`sqlite build+run ${((Date.now() - t0) / 1000).toFixed(1)} s, NOPM ${r.nopm}`);

    // One WebSocket for everything, plus exactly one reconnect after the drop.
    expect(sockets).toBe(2);
    // After the resume the live series equals the stored one: no gap, no duplicate point.
    const live = await page.evaluate((id) => {
      const v = (globalThis as unknown as { __sledgeLive: { view(id: string): { state: { client: { ts: number }[]; engine: { ts: number }[] } | null } | null } }).__sledgeLive.view(id);
      return { client: v?.state?.client.map((c) => c.ts) ?? [], engine: v?.state?.engine.map((c) => c.ts) ?? [] };
    }, r.jobId);
    const stored = (await api<Tcount>(server.url, 'GET', `/jobs/${r.jobId}/tcount`)).body;
    expect(live.client).toEqual(stored.client.map((c) => c.ts));
    expect(live.engine).toEqual(stored.engine.map((c) => c.ts));

    expect(await permalinkNopm(r.jobId, 'sqlite')).toBe(r.nopm);
  });

  it('shares a read-only link that opens without the app state', async () => {
    await page.goto(`${server.url}/jobs/${runs['sqlite']!.id}`);
    await page.getByTestId('result-nopm').waitFor({ timeout: 30_000 });
    // The export links download the stored job.
    const json = await (await fetch(server.url + (await page.getByTestId('export-json').getAttribute('href'))!)).json();
    expect(json).toMatchObject({ schema: 'sledge-job-v1', result: { nopm: runs['sqlite']!.nopm } });
    const csv = await (await fetch(server.url + (await page.getByTestId('export-csv').getAttribute('href'))!)).text();
    expect(csv.split('\n')[0]).toBe('timestamp,tpm,nopm');
    // The Share control lists the job's links; a new one is made only when asked.
    await page.getByTestId('share-link').click();
    await page.getByTestId('share-none').waitFor();
    await page.getByTestId('share-create').click();
    const url = await page.getByTestId('share-url').inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    const fresh = await browser.freshContext();
    try {
      const p = await fresh.context.newPage();
      await p.goto(url);
      await p.getByTestId('result-nopm').waitFor({ timeout: 30_000 });
      expect(Number(await p.getByTestId('result-nopm').getAttribute('data-value'))).toBe(runs['sqlite']!.nopm);
      expect(await p.getByTestId('stop-job').count()).toBe(0);
      await p.waitForTimeout(800);
      await shot(p, 'shared-job');
    } finally {
      await fresh.close();
    }
  });
});

describe('performance profile', () => {
  it('plots NOPM and TPM against active VUs for runs sharing a profile id', async () => {
    const target = { engine: 'sqlite', file: 'e2e.sqlite' };
    const ids: string[] = [];
    for (const vus of [1, 3]) {
      const r = await api<Job>(server.url, 'POST', '/jobs', { type: 'run', target, tprocc: { driver: 'timed', vus, rampup: 0, duration: 0.1, userDelayMs: 0 }, profileId: 1, label: `profile ${vus} VU` });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    for (const id of ids) {
      await expect
        .poll(async () => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body.status, { timeout: 90_000, interval: 500 })
        .toBe('completed');
    }
    await page.goto(`${server.url}/compare?profile=1`);
    await page.getByTestId('profiles-table').waitFor({ timeout: 20_000 });
    await expect.poll(() => chartPoints(page, 'profile-chart'), { timeout: 20_000 }).toBe(4);
    await page.waitForTimeout(800);
    await shot(page, 'compare-profile');
  });
});

describe('stop', () => {
  it('stops a running job from its live panel', async () => {
    await nav(page, 'Run');
    await fill(page, 'tprocc.duration', '5');
    const id = await startJob(page, 'start-run');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="chart-client"]')?.getAttribute('data-points') ?? 0) > 10, undefined, { timeout: 60_000 });
    await page.getByTestId('stop-job').click();
    expect(await waitForJobEnd(page, id, 60_000)).toBe('stopped');
    // The final VU frame after a stop: no VU is left showing as running.
    await expect.poll(() => page.locator('[data-testid="vu-grid"] .vu-running, [data-testid="vu-grid"] .vu-connecting').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.locator('[data-testid="vu-grid"] .vu-finished').count()).toBeGreaterThan(0);
    await shot(page, 'run-stopped');
    // The form folded while the run was live: open it to change the duration back.
    await page.getByTestId('edit-run-settings').click();
    await fill(page, 'tprocc.duration', '0.5');
  });
});

describe('PostgreSQL', () => {
  beforeAll(async () => {
    // A schema left by an interrupted earlier run would make the build refuse; remove it first.
    const r = await api<Job>(server.url, 'POST', '/jobs', { type: 'delete', target: PG_TARGET });
    if (r.status === 201) {
      for (let i = 0; i < 120; i++) {
        const j = (await api<Job>(server.url, 'GET', `/jobs/${r.body.id}`)).body;
        if (['completed', 'failed', 'stopped'].includes(j.status)) break;
        await new Promise((ok) => setTimeout(ok, 500));
      }
    }
  });

  it('configures, builds, runs live, shows the result and the same NOPM on the permalink, then deletes the schema', async () => {
    await nav(page, 'Target');
    await page.locator('label[data-engine="postgresql"]').click();
    for (const [k, v] of Object.entries(PG_TARGET)) if (k !== 'engine') await fill(page, `target.${k}`, String(v));
    await page.getByTestId('test-connection').click();
    await expect.poll(() => page.getByTestId('test-result').textContent(), { timeout: 20_000 }).toMatch(/Connected: .*PostgreSQL|Connected: \d+/);
    await shot(page, 'pg-targets');

    const t0 = Date.now();
    const r = await buildAndRun('PostgreSQL', 'pg');
    runs['pg'] = { id: r.jobId, nopm: r.nopm };
    console.log(`pg build+run ${((Date.now() - t0) / 1000).toFixed(1)} s, NOPM ${r.nopm}`);
    expect(await permalinkNopm(r.jobId, 'pg')).toBe(r.nopm);

    await nav(page, 'Schema');
    await page.getByTestId('delete-schema').click();
    await shot(page, 'pg-delete-confirm');
    const deleteId = await startJob(page, 'delete-schema-confirm');
    expect(await waitForJobEnd(page, deleteId, 120_000)).toBe('completed');
    expect(await page.locator('.job-panel').textContent()).toMatch(/delete · PostgreSQL/);
  });
});

describe('field errors', () => {
  it('warehouses = 0 shows the API error at the field and creates no job', async () => {
    await nav(page, 'Schema');
    const before = await jobCount(server.url);
    await fill(page, 'tprocc.warehouses', '0');
    await page.getByTestId('build-schema').click();
    const err = page.locator('#f-tprocc-warehouses-error');
    await err.waitFor({ timeout: 10_000 });
    expect(await err.textContent()).toMatch(/^Warehouses must be >= 1/);
    expect(await page.locator('[data-field="tprocc.warehouses"]').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'schema-warehouses-error');
    expect(await jobCount(server.url)).toBe(before);
    await fill(page, 'tprocc.warehouses', '1');
  });

  it('a refused connection names the port field', async () => {
    await nav(page, 'Target');
    await fill(page, 'target.port', '1');
    await page.getByTestId('test-connection').click();
    const err = page.locator('#f-target-port-error');
    await err.waitFor({ timeout: 20_000 });
    expect(await err.textContent()).toMatch(/target\.port|port/i);
    await shot(page, 'targets-port-error');
    await fill(page, 'target.port', '5432');
  });
});

describe('jobs and compare', () => {
  it('lists the jobs grouped by date with the best NOPM per engine starred', async () => {
    await nav(page, 'Jobs');
    await page.getByTestId('jobs-table').first().waitFor();
    await shot(page, 'jobs-all');
    await expect.poll(() => page.locator('[data-testid="jobs-table"] tbody tr').count()).toBeGreaterThanOrEqual(7);
    await expect.poll(() => page.getByTestId('best-star').count()).toBe(2);
    await page.getByTestId('filter-type').selectOption('run');
    await expect.poll(() => page.locator('[data-testid="jobs-table"] tbody tr').count()).toBe(5);
    await shot(page, 'jobs');
    await page.getByTestId('filter-type').selectOption('');

    // Delete a job (the stopped run) with confirmation: its row goes and the total drops.
    await page.getByTestId('filter-status').selectOption('stopped');
    await expect.poll(() => page.locator('[data-testid="jobs-table"] tbody tr').count()).toBe(1);
    const row = page.locator('[data-testid="jobs-table"] tbody tr').first();
    const id = (await row.getAttribute('data-job-id'))!;
    const before = await jobCount(server.url);
    await page.getByTestId(`delete-${id}`).click();
    await shot(page, 'jobs-delete-confirm');
    await page.getByTestId(`delete-${id}-confirm`).click();
    await expect.poll(() => page.locator(`tr[data-job-id="${id}"]`).count()).toBe(0);
    expect(await jobCount(server.url)).toBe(before - 1);
    expect((await api(server.url, 'GET', `/jobs/${id}`)).status).toBe(404);
    await page.getByTestId('filter-status').selectOption('');
  });

  it('overlays the two runs on the compare page', async () => {
    await page.goto(`${server.url}/jobs?type=run`);
    for (const r of Object.values(runs)) await page.getByLabel(`Select job ${r.id} for compare`).check();
    await page.getByTestId('compare-selected').click();
    await page.getByTestId('compare-table').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="compare-table"] tbody tr').count()).toBe(2);
    await expect.poll(() => chartPoints(page, 'compare-tx')).toBeGreaterThan(10);
    await page.waitForTimeout(800);
    await shot(page, 'compare');
  });

  it('remembers the dark theme', async () => {
    await page.goto(`${server.url}/jobs/${runs['pg']!.id}`);
    await page.getByTestId('result-nopm').waitFor();
    await page.getByTestId('theme-toggle').click();
    await page.reload();
    await page.getByTestId('result-nopm').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await page.waitForTimeout(800);
    await shot(page, 'job-dark');
    await page.getByTestId('theme-toggle').click();
  });
});
