import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import type { AshReport, Job } from '@sledge/protocol';
import { shot, shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, chartPoints, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { pgTarget } from './targets.js';
import { openSession, closeSession } from './session.js';

/**
 * The Metrics view (issue 5) on PostgreSQL: build 1 warehouse and run 4 VUs
 * for ~45 s with the view open live. The load chart grows and shows CPU and
 * another class; during the build COPY's ClientRead shows as Client; Top SQL
 * has the transaction calls; brushing a range recomputes the tops through
 * GET /ash?from&to; a fresh browser sees the same view on the permalink. CPU
 * comes from the agent the server starts for itself (apps/agent).
 */

const DB = 'sledge_e2e_ash';
const PG_TARGET = pgTarget(DB);
const TX_CALL = /neword|payment|delivery|slev|ostat/i;

let server: RunningServer;
let browser: Chromium;
let page: Page;
let agents = 0;
const ids: { build?: string; run?: string } = {};

async function deleteSchema(): Promise<void> {
  const r = await api<Job>(server.url, 'POST', '/jobs', { type: 'delete', target: PG_TARGET });
  if (r.status !== 201) return;
  for (let i = 0; i < 240; i++) {
    const j = (await api<Job>(server.url, 'GET', `/jobs/${r.body.id}`)).body;
    if (['completed', 'failed', 'stopped', 'interrupted'].includes(j.status)) return;
    await new Promise((ok) => setTimeout(ok, 500));
  }
}

/** The classes the load chart draws (its data-classes attribute). */
async function ashClasses(p: Page): Promise<string[]> {
  const v = await p.getByTestId('chart-ash').getAttribute('data-classes');
  return v ? v.split(',') : [];
}

async function waitForClass(p: Page, cls: string, timeout: number): Promise<void> {
  await p.waitForFunction((c) => (document.querySelector('[data-testid="chart-ash"]')?.getAttribute('data-classes') ?? '').split(',').includes(c), cls, { timeout, polling: 250 });
}

/** Rows of a top table as text: first cell and the share. */
async function topRows(p: Page, testId: string): Promise<string[]> {
  return p.locator(`[data-testid="${testId}"] tbody tr`).evaluateAll((rows) => rows.map((r) => `${r.querySelector('td')?.textContent?.trim() ?? ''} ${r.querySelector('.pct')?.textContent ?? ''}`));
}

beforeAll(async () => {
  // The TypeScript row generator makes the client the slower side of COPY, and node-postgres
  // (the default loader) sends each unit's rows from the thread that generates the next one,
  // so the build's sessions wait on ClientRead (the situation of the HammerDB/pgSentinel
  // article) in most samples; the native generator builds 1 warehouse in ~5 s with the
  // database the busier side (so does SLEDGE_PGLOADER=libpq: its COPY sessions are on CPU).
  ({ server, browser, page } = await openSession({ server: { env: { SLEDGE_GENERATOR: 'typescript' } } }));
  await deleteSchema();
  // The server starts the local CPU agent when apps/agent is built; give it a moment to say hello.
  for (let i = 0; i < 20 && agents === 0; i++) {
    agents = (await api<unknown[]>(server.url, 'GET', '/agents')).body.length;
    if (!agents) await new Promise((ok) => setTimeout(ok, 250));
  }
  console.log(`CPU agents connected: ${agents}`);
});

afterAll(async () => {
  if (server) await deleteSchema().catch((e: unknown) => console.error('schema delete failed', e));
  await closeSession({ browser, server });
});

describe('Metrics on PostgreSQL', () => {
  it('shows the build live: COPY waiting on the client (ClientRead) shows as the Client class', async () => {
    const t0 = Date.now();
    await page.goto(`${server.url}/targets`);
    await page.locator('label[data-engine="postgresql"]').click();
    for (const [k, v] of Object.entries(PG_TARGET)) if (k !== 'engine') await fill(page, `target.${k}`, String(v));

    // Save the configuration and load it back: the passwords come back as "********" and every
    // request that needs them carries the configuration's id, so the server fills them in.
    await page.locator('#config-name').fill('e2e ash');
    await page.getByTestId('save-config').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count(), { timeout: 10_000 }).toBe(1);
    await page.locator('#config-select').selectOption({ label: 'e2e ash (postgresql, TPROC-C)' });
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => page.locator('[data-field="target.password"]').inputValue()).toBe('********');
    expect(await page.locator('#f-target-password-help').textContent()).toMatch(/Kept on the server with “e2e ash”/);
    const probe = page.waitForRequest((r) => r.url().endsWith('/api/v1/targets/ash') && r.method() === 'POST');
    await page.getByTestId('sample-ash').click();
    const probeBody = (await probe).postDataJSON() as { configId?: number; target: { password: string } };
    expect(probeBody.target.password).toBe('********');
    expect(probeBody.configId).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('ash-now-source').textContent(), { timeout: 20_000 }).toMatch(/pg_stat_activity|pgsentinel/);
    await shot(page, 'metrics-targets-probe');

    await nav(page, 'Schema');
    await fill(page, 'tprocc.warehouses', '1');
    await fill(page, 'tprocc.buildVus', '1');
    const create = page.waitForRequest((r) => r.url().endsWith('/api/v1/jobs') && r.method() === 'POST');
    ids.build = await startJob(page, 'build-schema');
    expect(((await create).postDataJSON() as { configId?: number }).configId).toBe(probeBody.configId);
    await page.getByTestId('tab-metrics').click();
    await page.getByTestId('metrics-view').waitFor();
    // Watch the live chart until Client shows (or the build ends without it).
    await page.waitForFunction(
      (id) =>
        (document.querySelector('[data-testid="chart-ash"]')?.getAttribute('data-classes') ?? '').split(',').includes('Client') ||
        ['completed', 'failed', 'stopped'].includes(document.querySelector(`.job-panel[data-job-id="${id}"]`)?.getAttribute('data-status') ?? ''),
      ids.build,
      { timeout: 180_000, polling: 250 },
    );
    expect(await ashClasses(page)).toContain('Client');
    console.log(`Client class seen while the build was ${await page.locator('.job-panel').getAttribute('data-status')}`);
    await shot(page, 'metrics-build-live');
    const sampler = page.locator('[data-testid="sampler-status"] li[data-sampler="ash"]');
    expect(await sampler.getAttribute('data-ok')).toBe('true');
    expect(await waitForJobEnd(page, ids.build, 240_000)).toBe('completed');
    // COPY appears in Top SQL with its Client share.
    await expect.poll(() => topRows(page, 'top-sql'), { timeout: 20_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/copy/i)]));
    console.log(`build with metrics ${((Date.now() - t0) / 1000).toFixed(1)} s, classes ${(await ashClasses(page)).join(',')}`);
  });

  it('shows the check items of a shared check job', async () => {
    const r = await api<Job>(server.url, 'POST', '/jobs', { type: 'check', target: PG_TARGET });
    expect(r.status).toBe(201);
    await expect.poll(async () => (await api<Job>(server.url, 'GET', `/jobs/${r.body.id}`)).body.status, { timeout: 60_000, interval: 500 }).toBe('completed');
    const link = await api<{ path: string }>(server.url, 'POST', `/jobs/${r.body.id}/share`);
    const fresh = await browser.freshContext();
    try {
      const p = await fresh.context.newPage();
      await p.goto(server.url + link.body.path);
      await p.getByTestId('check-list').waitFor({ timeout: 20_000 });
      expect(await p.getByTestId('check-list').textContent()).toMatch(/All \d+ checks passed/);
    } finally {
      await fresh.close();
    }
  });

  it('runs 4 VUs with the metrics open live, brushes a range, drills down, and shows the same view on the permalink', async () => {
    const t0 = Date.now();
    await nav(page, 'Run');
    await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
    await fill(page, 'tprocc.vus', '4');
    await fill(page, 'tprocc.rampup', '0.1');
    await fill(page, 'tprocc.duration', '0.6');
    const id = await startJob(page, 'start-run');
    ids.run = id;
    await page.getByTestId('tab-metrics').click();

    // The load chart gains points live and shows CPU plus at least one other class.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="chart-ash"]')?.getAttribute('data-points') ?? 0) > 0, undefined, { timeout: 60_000 });
    const first = await chartPoints(page, 'chart-ash');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="chart-ash"]')?.getAttribute('data-points') ?? 0) > n, first, { timeout: 30_000 });
    await waitForClass(page, 'CPU', 60_000);
    await expect.poll(async () => (await ashClasses(page)).filter((c) => c !== 'CPU').length, { timeout: 60_000 }).toBeGreaterThan(0);
    // Top SQL holds the transaction calls.
    await expect.poll(() => topRows(page, 'top-sql'), { timeout: 30_000 }).toEqual(expect.arrayContaining([expect.stringMatching(TX_CALL)]));

    // CPU from the server's own agent, on the same time axis.
    if (agents > 0) {
      await expect.poll(() => page.getByTestId('cpu-agent').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect.poll(() => chartPoints(page, 'chart-cpu'), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(Number(await page.getByTestId('chart-cpu-heat').first().getAttribute('data-cores'))).toBeGreaterThan(0);
      expect(Number(await page.getByTestId('chart-ash').getAttribute('data-vcpus'))).toBeGreaterThan(0);
      expect(await page.getByTestId('cpu-system').first().textContent()).toMatch(/CPUs/);
    } else {
      console.log('no CPU agent connected (apps/agent not built): CPU assertions skipped');
    }
    // Screenshot once the measured window is well under way (rampup is 6 s).
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="chart-ash"]')?.getAttribute('data-buckets') ?? 0) >= 20, undefined, { timeout: 60_000, polling: 250 });
    await shot(page, 'metrics-run-live');
    await page.getByTestId('theme-toggle').click();
    await page.waitForTimeout(1200);
    await shot(page, 'metrics-run-live-dark');
    await page.getByTestId('theme-toggle').click();

    expect(await waitForJobEnd(page, id, 150_000)).toBe('completed');
    console.log(`run with metrics ${((Date.now() - t0) / 1000).toFixed(1)} s, classes ${(await ashClasses(page)).join(',')}`);
    // The finished view draws the stored report: wait until the tops are the server's.
    await expect.poll(() => page.getByTestId('top-events').getAttribute('data-source'), { timeout: 20_000 }).toBe('rest');
    const full = await topRows(page, 'top-events');
    const fullVersion = Number(await page.getByTestId('top-events').getAttribute('data-version'));

    // Brush the middle of the run: the tops are recomputed by the server for that range.
    const chart = page.getByTestId('chart-ash');
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.boundingBox())!;
    const left = box.x + 64;
    const width = box.width - 64 - 28;
    const request = page.waitForRequest((r: Request) => /\/api\/v1\/jobs\/[0-9A-F]+\/ash\?from=\d+&to=\d+/.test(r.url()), { timeout: 15_000 });
    await page.mouse.move(left + width * 0.55, box.y + 160);
    await page.mouse.down();
    await page.mouse.move(left + width * 0.7, box.y + 160, { steps: 8 });
    await page.mouse.move(left + width * 0.8, box.y + 160, { steps: 8 });
    await page.mouse.up();
    const req = await request;
    const q = new URL(req.url()).searchParams;
    expect(Number(q.get('to'))).toBeGreaterThan(Number(q.get('from')));
    await expect.poll(() => page.getByTestId('top-events').getAttribute('data-range'), { timeout: 10_000 }).toBe(`${q.get('from')}-${q.get('to')}`);
    await expect.poll(() => page.getByTestId('top-events').getAttribute('data-loading'), { timeout: 10_000 }).toBe('false');
    expect(Number(await page.getByTestId('top-events').getAttribute('data-version'))).toBeGreaterThan(fullVersion);
    const brushed = await topRows(page, 'top-events');
    const ranged = (await api<AshReport>(server.url, 'GET', `/jobs/${id}/ash?from=${q.get('from')}&to=${q.get('to')}`)).body;
    expect(brushed.length).toBe(ranged.topEvents.length);
    expect(brushed[0]).toContain(ranged.topEvents[0]!.event);
    console.log(`tops full range: ${full.slice(0, 3).join(' | ')}; brushed: ${brushed.slice(0, 3).join(' | ')}`);
    expect(await page.getByTestId('ash-range-label').textContent()).toMatch(/Selected/);

    // Click an event: Top SQL shows the statements that waited on it.
    const ev = page.locator('[data-testid="top-events"] tbody tr').first();
    const evName = (await ev.getAttribute('data-event'))!;
    await ev.locator('button').click();
    await expect.poll(() => page.getByTestId('top-sql').getAttribute('data-event')).toMatch(new RegExp(`:${evName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(await page.locator('[data-testid="top-sql"] tbody tr[data-sql-id]').count()).toBeGreaterThan(0);
    // Click a SQL: its activity over time by class.
    await page.locator('[data-testid="top-sql"] tbody tr[data-sql-id] button').first().click();
    await expect.poll(() => chartPoints(page, 'chart-sql-activity'), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('sql-activity-text').textContent()).not.toBe('');
    await page.waitForTimeout(800);
    await shot(page, 'metrics-run-drilldown');

    // The permalink in a fresh browser: the same load chart (same classes and buckets) and the same tops.
    const live = { classes: await ashClasses(page), buckets: await chart.getAttribute('data-buckets') };
    await page.getByTestId('clear-selection').click();
    await page.getByTestId('clear-event').click();
    await expect.poll(() => page.getByTestId('top-events').getAttribute('data-range')).toBe('all');
    await expect.poll(() => topRows(page, 'top-events')).toEqual(full);
    const fresh = await browser.freshContext();
    try {
      const p = await fresh.context.newPage();
      await p.goto(`${server.url}/jobs/${id}?view=metrics`);
      await p.getByTestId('chart-ash').waitFor({ timeout: 30_000 });
      await expect.poll(() => p.getByTestId('top-events').getAttribute('data-source'), { timeout: 20_000 }).toBe('rest');
      expect(await ashClasses(p)).toEqual(live.classes);
      expect(await p.getByTestId('chart-ash').getAttribute('data-buckets')).toBe(live.buckets);
      await expect.poll(() => topRows(p, 'top-events')).toEqual(full);
      expect(await topRows(p, 'top-sql')).toEqual(await topRows(page, 'top-sql'));
      if (agents > 0) await expect.poll(() => chartPoints(p, 'chart-cpu'), { timeout: 20_000 }).toBeGreaterThan(0);
      await p.waitForTimeout(1000);
      await shot(p, 'metrics-permalink');
      await shotOf(p.getByTestId('chart-ash'), 'metrics-permalink-ash');
      // The tooltip of a moment: time, phase, total and the classes in it.
      const b = (await p.getByTestId('chart-ash').boundingBox())!;
      await p.mouse.move(b.x + 64 + (b.width - 92) * 0.6, b.y + 200);
      await p.waitForTimeout(400);
      expect(await p.getByTestId('chart-ash').textContent()).toMatch(/active sessions/);
      await shotOf(p.getByTestId('chart-ash'), 'metrics-permalink-tooltip');
      await p.getByTestId('theme-toggle').click();
      await p.waitForTimeout(1200);
      await shot(p, 'metrics-permalink-dark');
      await shotOf(p.locator('.tops-grid'), 'metrics-permalink-tops-dark');

      // The read-only share link opens on the same view.
      const link = await api<{ path: string }>(server.url, 'POST', `/jobs/${id}/share`);
      await p.goto(`${server.url}${link.body.path}?view=metrics`);
      await p.getByTestId('chart-ash').waitFor({ timeout: 30_000 });
      expect(await ashClasses(p)).toEqual(live.classes);
      await expect.poll(() => topRows(p, 'top-events')).toEqual(full);

      // The build's permalink shows its Client (COPY) activity.
      await p.goto(`${server.url}/jobs/${ids.build}?view=metrics`);
      await p.getByTestId('chart-ash').waitFor({ timeout: 30_000 });
      expect(await ashClasses(p)).toContain('Client');
      await p.waitForTimeout(1000);
      await shot(p, 'metrics-build-permalink-dark');
    } finally {
      await fresh.close();
    }
  });
});
