import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TX_COLORS, TX_TYPES, type Job, type ShareInfo, type TprochResult } from '@sledge/protocol';
import { shot, shotOf, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * The first day on a fresh clone (issue 31), in the browser, on the default
 * SQLite target: TPROC-C then TPROC-H built from the Schema page into their
 * own default files (and the refusal naming the workload a file really
 * holds); the run label cleared once a run starts; a run that fails its
 * thresholds shown as failed, and one a ':abort' threshold stops early; the
 * jobs list fitting its card at 1280, 1600 and 1920 px with a Workload
 * column; the TPROC-H build's workers and timeline; share links listed,
 * created on request and revoked; no DOP on SQLite; a plan beside its query
 * text; compare refusing runs of two workloads; the report's transaction
 * colours.
 */

let server: RunningServer;
let browser: Chromium;
let page: Page;
const jobs: { cBuild?: string; hBuild?: string; labelled?: string; judged?: string; aborted?: string; hRun?: string } = {};

const jobOf = async (id: string) => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
const fileOf = (j: Job) => (j.config as { target: { file: string } }).target.file;

/** Bars of the build progress: [label, percent]. */
const workerBars = (p: Page) =>
  p.locator('[aria-label="Rows per build worker"] li').evaluateAll((lis) => lis.map((li) => [li.querySelector('.bar-label')!.textContent, li.getAttribute('data-percent')]));

/** Open the Run form again when it is folded to the last run's summary. */
async function openRunForm(p: Page): Promise<void> {
  if (await p.getByTestId('edit-run-settings').isVisible()) await p.getByTestId('edit-run-settings').click();
}

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 900 } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
});

describe('building both workloads on the default SQLite target', () => {
  it('builds TPROC-C into tprocc.sqlite, then TPROC-H into its own tproch.sqlite, as the CLI does', async () => {
    await page.goto(`${server.url}/targets`);
    await page.locator('label[data-engine="sqlite"]').click();
    expect(await page.locator('[data-field="target.file"]').inputValue()).toBe('tprocc.sqlite');
    await nav(page, 'Schema');
    await fill(page, 'tprocc.warehouses', '1');
    await fill(page, 'tprocc.buildVus', '1');
    jobs.cBuild = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, jobs.cBuild, 240_000)).toBe('completed');
    // A finished build shows every worker complete; one build VU loads ITEM and then the warehouse (HammerDB's single-VU build).
    await expect.poll(() => workerBars(page)).toEqual([['Worker 1 · item, W 1–1', '100']]);
    expect(fileOf(await jobOf(jobs.cBuild))).toMatch(/\/tprocc\.sqlite$/);

    await page.locator('input[data-workload="tproch"]').check();
    await nav(page, 'Target');
    // The file field follows the workload: TPROC-H's default comes from its protocol definition.
    expect(await page.locator('[data-field="target.file"]').inputValue()).toBe('tproch.sqlite');
    await nav(page, 'Schema');
    await page.getByTestId('sf-0.01').click();
    await fill(page, 'tproch.buildVus', '1');
    jobs.hBuild = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, jobs.hBuild, 300_000)).toBe('completed');
    expect(fileOf(await jobOf(jobs.hBuild))).toMatch(/\/tproch\.sqlite$/);
    // TPROC-H's build workers in TPROC-H's tables and units, each complete.
    const bars = await workerBars(page);
    expect(bars).toEqual([
      ['Worker 1 · region, nation', '100'],
      ['Worker 2 · orders 1–15,000 (100% of each table)', '100'],
    ]);
    expect(JSON.stringify(bars)).not.toMatch(/item|W \d/);
    await shotOf(page.getByTestId('build-progress'), 'firstday-tproch-build');
  });

  it('a TPROC-H build into the TPROC-C file is refused, naming TPROC-C tables and what to do', async () => {
    await nav(page, 'Target');
    await fill(page, 'target.file', 'tprocc.sqlite');
    await nav(page, 'Schema');
    await page.getByTestId('build-schema').click();
    const msg = page.locator('.field-error', { hasText: 'already holds' });
    await msg.waitFor({ timeout: 30_000 });
    const text = (await msg.textContent())!;
    expect(text).toContain('already holds TPROC-C tables (item, warehouse, stock, district, customer, history, orders, new_order, order_line), not TPROC-H');
    // The page words the field by its label (target.file: "Database file").
    expect(text).toContain('choose another Database file for TPROC-H (its default is tproch.sqlite) or delete the TPROC-C schema first');
    expect(text).not.toContain('TPROC-H tables');
    await shotOf(page.locator('form.card'), 'firstday-tproch-refused');
    // Back to TPROC-H's own file for the runs below.
    await nav(page, 'Target');
    await fill(page, 'target.file', 'tproch.sqlite');
  });
});

describe('TPROC-C runs from the Run page', () => {
  it('the label names the run it was typed for and is cleared once that run starts', async () => {
    await nav(page, 'Schema');
    await page.locator('input[data-workload="tprocc"]').check();
    await nav(page, 'Target');
    expect(await page.locator('[data-field="target.file"]').inputValue()).toBe('tprocc.sqlite');
    await nav(page, 'Run');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.05');
    await fill(page, 'tprocc.vus', '1');
    await page.locator('details summary', { hasText: 'Advanced driver options' }).click();
    await page.locator('#run-label').fill('first day');
    // A label about to go with the run is visible beside Start.
    expect(await page.getByTestId('run-label-note').textContent()).toContain('first day');
    jobs.labelled = await startJob(page, 'start-run');
    expect((await jobOf(jobs.labelled)).label).toBe('first day');
    expect(await waitForJobEnd(page, jobs.labelled, 120_000)).toBe('completed');
    await openRunForm(page);
    expect(await page.locator('#run-label').inputValue()).toBe('');
    expect(await page.getByTestId('run-label-note').count()).toBe(0);
    await nav(page, 'Schema');
    expect(await page.locator('#job-label').inputValue()).toBe('');
  });

  it('a run that fails a threshold is shown failed, not a green completed: job page, live panel and jobs list', async () => {
    await nav(page, 'Run');
    await openRunForm(page);
    await page.getByTestId('add-threshold').click();
    await page.getByTestId('threshold-0').fill('nopm>0');
    await page.getByTestId('add-threshold').click();
    await page.getByTestId('threshold-1').fill('p95(neword)<1us');
    jobs.judged = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, jobs.judged, 120_000)).toBe('completed');
    const j = await jobOf(jobs.judged);
    // The previous run's label did not carry over.
    expect(j.label).toBeUndefined();
    expect(j.passed).toBe(false);
    // The live panel on the Run page.
    const banner = page.getByTestId('verdict-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-verdict')).toBe('failed');
    expect(await banner.textContent()).toContain('p95(neword)<1us');
    const badge = page.locator(`.job-panel[data-job-id="${jobs.judged}"] .job-status-line .status`);
    expect(await badge.textContent()).toContain('failed thresholds');
    expect(await badge.getAttribute('class')).not.toContain('status-completed');

    await page.goto(`${server.url}/jobs/${jobs.judged}`);
    await page.getByTestId('verdict-banner').waitFor();
    expect(await page.locator('.result-wrap').getAttribute('data-verdict')).toBe('failed');
    const good = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--good').trim());
    const border = await page.locator('.result-wrap .result-banner').evaluate((el) => getComputedStyle(el).borderTopColor);
    const goodRgb = await page.evaluate((c) => {
      const d = document.createElement('div');
      d.style.color = c;
      document.body.append(d);
      const v = getComputedStyle(d).color;
      d.remove();
      return v;
    }, good);
    expect(border).not.toBe(goodRgb);
    expect(await page.locator('.job-status-line .status').textContent()).toContain('failed thresholds');
    await shot(page, 'firstday-failed-thresholds');

    await page.goto(`${server.url}/jobs`);
    const row = page.locator(`tr[data-job-id="${jobs.judged}"]`);
    await row.waitFor();
    expect(await row.locator('.status').textContent()).toContain('failed thresholds');
    expect(await row.locator('.status').getAttribute('class')).toContain('status-thresholds-failed');
  });

  it("a ':abort' threshold that fails stops the run early and says which and when", async () => {
    await nav(page, 'Run');
    await openRunForm(page);
    await fill(page, 'tprocc.duration', '0.5');
    // The form keeps no thresholds across pages: one row for this run.
    if ((await page.getByTestId('threshold-0').count()) === 0) await page.getByTestId('add-threshold').click();
    await page.getByTestId('threshold-0').fill('p95(neword)<1us');
    await page.getByTestId('threshold-abort-0').check();
    expect(await page.getByTestId('threshold-0').inputValue()).toBe('p95(neword)<1us:abort');
    jobs.aborted = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, jobs.aborted, 120_000)).toBe('failed');
    const j = await jobOf(jobs.aborted);
    expect(j.error?.code).toBe('SLEDGE_E_THRESHOLD_ABORT');
    expect(j.error?.message).toMatch(/^aborted: threshold p95\(neword\)<1us failed at 00:\d\d of the measured window/);
    expect(j.result).toBeUndefined();
    const at = j.thresholdResults![0]!.abortedAt!;
    expect(at).toBeLessThan(30);
    const banner = page.getByTestId('verdict-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-verdict')).toBe('aborted');
    expect(await banner.textContent()).toMatch(/Aborted at 0:\d\d into the measured window: threshold p95\(neword\)<1us failed/);
    expect(await page.locator(`.job-panel[data-job-id="${jobs.aborted}"] .job-status-line .status`).textContent()).toContain('aborted: threshold');
    await shotOf(page.locator(`.job-panel[data-job-id="${jobs.aborted}"]`), 'firstday-aborted');
  });
});

describe('TPROC-H run: timeline, DOP, plans', () => {
  it("runs a power test: no DOP on SQLite, the first query's bar is its own time, each plan beside its query text", async () => {
    await nav(page, 'Schema');
    await page.locator('input[data-workload="tproch"]').check();
    await nav(page, 'Run');
    await openRunForm(page);
    await page.locator('[data-field="tproch.mode"]').selectOption('power');
    // SQLite has no degree of parallelism: the server says so, the form has no DOP field.
    await page.locator('[data-field="tproch.scaleFactor"]').waitFor();
    expect(await page.locator('[data-field="tproch.dop"]').count()).toBe(0);
    jobs.hRun = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, jobs.hRun, 600_000)).toBe('completed');
    const r = (await jobOf(jobs.hRun)).result as TprochResult;
    expect(r.queries).toHaveLength(22);

    await page.goto(`${server.url}/jobs/${jobs.hRun}`);
    await page.getByTestId('result-banner').waitFor();
    expect(await page.getByTestId('result-scale').textContent()).not.toContain('DOP');
    const tl = page.getByTestId('tproch-timeline');
    await tl.waitFor();
    // The first query's bar spans its own time (not the stream's start-up before it), which shows as a gap.
    const barMs = Number(await tl.getAttribute('data-first-bar-ms'));
    const queryMs = Number(await tl.getAttribute('data-first-query-ms'));
    expect(Math.abs(barMs - queryMs)).toBeLessThanOrEqual(1);
    expect(Number(await tl.getAttribute('data-first-bar-offset-ms'))).toBeGreaterThanOrEqual(0);
    await shotOf(tl, 'firstday-tproch-timeline');

    await page.getByTestId('plan-q1').click();
    const sql = page.getByTestId('plan-sql-q1');
    await sql.waitFor();
    expect(await sql.textContent()).toMatch(/FROM\s+lineitem/i);
    expect((await page.getByTestId('plan-text-q1').textContent())!.length).toBeGreaterThan(0);
    await shotOf(page.locator('tr.plan-row'), 'firstday-plan-with-text');
  });
});

describe('jobs list', () => {
  it('fits its card at 1280, 1600 and 1920 px, with a Workload column', async () => {
    for (const width of [1280, 1600, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/jobs`);
      await page.locator(`tr[data-job-id="${jobs.hRun}"]`).waitFor();
      await shot(page, `firstday-jobs-${width}`);
      const sizes = await page.locator('table.jobs').evaluateAll((ts) => ts.map((t) => [t.getBoundingClientRect().width, t.closest('.table-wrap')!.getBoundingClientRect().width, t.closest('.card')!.getBoundingClientRect().width]));
      expect(sizes.length).toBeGreaterThan(0);
      for (const [table, wrap, card] of sizes) {
        expect(table, `table at ${width} px`).toBeLessThanOrEqual(wrap! + 0.5);
        expect(wrap, `its box at ${width} px`).toBeLessThanOrEqual(card! + 0.5);
      }
      // Every row's actions are inside the table's box (none clipped).
      const clipped = await page.locator('table.jobs td.row-actions button').evaluateAll((bs) =>
        bs.filter((b) => b.getBoundingClientRect().right > b.closest('.table-wrap')!.getBoundingClientRect().right + 0.5).length,
      );
      expect(clipped, `clipped actions at ${width} px`).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator('table.jobs thead th', { hasText: 'Workload' }).count()).toBeGreaterThan(0);
    expect(await page.locator(`tr[data-job-id="${jobs.hRun}"] td[data-col="workload"]`).textContent()).toBe('TPROC-H');
    expect(await page.locator(`tr[data-job-id="${jobs.judged}"] td[data-col="workload"]`).textContent()).toBe('TPROC-C');
  });

  it('will not compare runs of two workloads: the button says why, the Compare page refuses and offers each group', async () => {
    await page.goto(`${server.url}/jobs`);
    await page.locator(`tr[data-job-id="${jobs.hRun}"]`).waitFor();
    await page.locator(`tr[data-job-id="${jobs.judged}"] input[type="checkbox"]`).check();
    await page.locator(`tr[data-job-id="${jobs.hRun}"] input[type="checkbox"]`).check();
    expect(await page.getByTestId('compare-selected').isDisabled()).toBe(true);
    expect(await page.getByTestId('compare-selected-mixed').textContent()).toContain('different workloads');
    await page.locator(`tr[data-job-id="${jobs.hRun}"] input[type="checkbox"]`).uncheck();
    await page.locator(`tr[data-job-id="${jobs.labelled}"] input[type="checkbox"]`).check();
    expect(await page.getByTestId('compare-selected').isDisabled()).toBe(false);

    await page.goto(`${server.url}/compare?jobs=${jobs.judged},${jobs.hRun},${jobs.labelled}`);
    const mixed = page.getByTestId('compare-mixed');
    await mixed.waitFor({ timeout: 30_000 });
    expect(await mixed.textContent()).toContain('These runs are of different workloads (TPROC-C: 2, TPROC-H: 1)');
    expect(await page.getByTestId('compare-table').count()).toBe(0);
    expect(await page.getByTestId('compare-report').isDisabled()).toBe(true);
    // The picker will not add a TPROC-H run to TPROC-C ones.
    expect(await page.locator(`input[data-job-id="${jobs.aborted}"]`).count()).toBe(0); // failed runs have no result: not listed
    await shot(page, 'firstday-compare-mixed');
    await page.getByTestId('compare-only-tprocc').click();
    await page.getByTestId('compare-table').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('compare-mixed').count()).toBe(0);
    expect(await page.locator(`input[data-job-id="${jobs.hRun}"]`).isDisabled()).toBe(true);
  });
});

describe('share links and the report', () => {
  it('lists the existing links, creates one only when asked, copies and revokes', async () => {
    const id = jobs.judged!;
    const links = async () => (await api<ShareInfo[]>(server.url, 'GET', `/jobs/${id}/share`)).body;
    await page.goto(`${server.url}/jobs/${id}`);
    await page.getByTestId('share-link').click();
    await page.getByTestId('share-none').waitFor();
    expect(await links()).toHaveLength(0);
    await page.getByTestId('share-create').click();
    await expect.poll(() => page.getByTestId('share-row').count()).toBe(1);
    await page.getByTestId('share-create').click();
    await expect.poll(() => page.getByTestId('share-row').count()).toBe(2);
    const [first, second] = await links();
    expect(await page.getByTestId('share-url').inputValue()).toBe(`${server.url}/s/${second!.token}`);
    // Closing and opening the panel lists them again, and creates none.
    await page.getByTestId('share-link').click();
    await page.getByTestId('share-link').click();
    await expect.poll(() => page.getByTestId('share-row').count()).toBe(2);
    expect(await links()).toHaveLength(2);
    await shotOf(page.getByTestId('share-panel'), 'firstday-share-links');
    await page.getByTestId(`share-revoke-${first!.token}`).click();
    await expect.poll(() => page.getByTestId('share-row').count()).toBe(1);
    expect((await links()).map((s) => s.token)).toEqual([second!.token]);
    expect((await api(server.url, 'GET', `/shared/${first!.token}`)).status).toBe(404);
    expect((await api(server.url, 'GET', `/shared/${second!.token}`)).status).toBe(200);
  });

  it("the HTML report draws each transaction in the dashboard's colour", async () => {
    const html = await (await fetch(`${server.url}/api/v1/jobs/${jobs.judged}/report`)).text();
    for (const t of TX_TYPES) expect(html, t).toContain(TX_COLORS[t].light);
  });
});
