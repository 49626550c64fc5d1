import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Capabilities, ChbenchResult, Job, TprochResult } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, fill, nav, startJob, waitForJobEnd } from './ui.js';
import { openSession, closeSession } from './session.js';

/**
 * DuckDB in the browser: on the Target page the DuckDB card says TPROC-C is
 * not offered, picking it switches the workload to TPROC-H (from the default
 * TPROC-C) and the connection test looks for the TPROC-H schema (it asked for
 * TPROC-C's and failed before); a file of its own; TPROC-H SF 0.01 built from
 * the Schema page with the memory limit left blank (sent as "" and refused
 * before); a power run (1 stream) from the Run page; the job page with the 22
 * query times and the geomean, and no validity panel (TPROC-H computes no
 * verdict; the page said "not computed, stored before verdicts"); each
 * query's process CPU in its cell, and DuckDB's profile of a query (its
 * operators with their own times) beside its EXPLAIN plan. Then
 * CH-benCHmark in a file of its own: 1 warehouse built from the Schema page,
 * and the Run page's VUs defaulting to 0 (DuckDB runs the analytic streams
 * alone, as capabilities' limited.chbench says; 1 VU was the default and the
 * server refused it), the run started with that default completing.
 */

const FILE = 'duckdb-e2e.duckdb';
const CH_FILE = 'duckdb-e2e-chbench.duckdb';

let dataDir: string;
let server: RunningServer;
let browser: Chromium;
let page: Page;

const jobOf = async (id: string) => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
const fileOf = (job: Job) => (job.config as { target: { engine: string; file: string } }).target;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sledge-e2e-duckdb-'));
  ({ server, browser, page } = await openSession({ server: { dataDir } }));
});

afterAll(async () => {
  await closeSession({ browser, server });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('TPROC-H on DuckDB', () => {
  it('the server offers DuckDB with TPROC-H and scripts, and TPROC-C and CH-benCHmark in part', async () => {
    const caps = (await api<Capabilities>(server.url, 'GET', '/capabilities')).body;
    const d = caps.engines.find((e) => e.engine === 'duckdb');
    expect(d).toMatchObject({ available: true, workloads: ['tproch', 'tprocc', 'chbench', 'script'] });
    expect(d?.limited?.['tprocc']).toBeTruthy();
  });

  it('Target page: the DuckDB card says TPROC-C is schema only; picking it switches the workload to TPROC-H', async () => {
    await page.goto(`${server.url}/targets`);
    const card = page.locator('label[data-engine="duckdb"]');
    await card.waitFor();
    expect(await card.getByTestId('limited-duckdb-tprocc').textContent()).toBe('TPROC-C: Schema only');
    expect(await card.getByTestId('limited-duckdb-tprocc').getAttribute('title')).toMatch(/^Schema only \(build, check, delete; no runs\)\. DuckDB runs no TPROC-C transactions/);
    expect(await card.getByTestId('limited-duckdb-chbench').textContent()).toBe('CH-benCHmark: Analytic streams only');
    await card.click();
    expect(await card.getAttribute('class')).toContain('selected');
    // The file field takes TPROC-H's default, then a name of our own.
    expect(await page.locator('[data-field="target.file"]').inputValue()).toBe('tproch.duckdb');
    await fill(page, 'target.file', FILE);
    await page.getByTestId('test-connection').click();
    const result = page.getByTestId('test-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toMatch(/^Connected: .*No TPROC-H schema yet: build one on the Schema page\.$/);
    await shot(page, 'duckdb-target');
    await nav(page, 'Schema');
    expect(await page.locator('input[data-workload="tproch"]').isChecked()).toBe(true);
    expect(await page.locator('input[data-workload="tprocc"]').isDisabled()).toBe(false);
    expect(await page.getByTestId('limited-tprocc').textContent()).toBe(' (Schema only (build, check, delete; no runs))');
    expect(await page.locator('#schema-h').textContent()).toBe('TPROC-H schema on DuckDB');
  });

  it('builds TPROC-H SF 0.01 from the Schema page into its own file', async () => {
    await page.getByTestId('sf-0.01').click();
    expect(await page.locator('[data-field="tproch.scaleFactor"]').inputValue()).toBe('0.01');
    await fill(page, 'tproch.buildVus', '1');
    await shot(page, 'duckdb-schema');
    const id = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, id, 120_000)).toBe('completed');
    const build = await jobOf(id);
    expect(build).toMatchObject({ type: 'build', workload: 'tproch', engine: 'duckdb' });
    const target = fileOf(build);
    expect(target.file.endsWith(FILE)).toBe(true);
    expect(existsSync(isAbsolute(target.file) ? target.file : join(dataDir, target.file))).toBe(true);
    await shot(page, 'duckdb-build-done');
    // The connection test now finds the TPROC-H schema, with its scale factor.
    await nav(page, 'Target');
    await page.getByTestId('test-connection').click();
    await page.getByTestId('test-result').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('test-result').textContent()).toMatch(/^Connected: .*TPROC-H schema present at SF 0\.01\.$/);
    await nav(page, 'Schema');
  });

  it('runs a power test (1 stream): the job page shows the 22 query times and the geomean', async () => {
    await nav(page, 'Run');
    expect(await page.locator('#run-h').textContent()).toBe('TPROC-H driver on DuckDB');
    await page.locator('[data-field="tproch.mode"]').selectOption('power');
    await shot(page, 'duckdb-run-form');
    const id = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, id, 120_000)).toBe('completed');
    const job = await jobOf(id);
    expect(job).toMatchObject({ type: 'run', workload: 'tproch', engine: 'duckdb' });
    expect(fileOf(job).file.endsWith(FILE)).toBe(true);
    const r = job.result as TprochResult;
    expect(r).toMatchObject({ mode: 'power', scaleFactor: 0.01, streams: 1, errors: 0 });
    expect(r.queries).toHaveLength(22);

    await page.goto(`${server.url}/jobs/${id}`);
    await page.getByTestId('result-banner').waitFor();
    const rows = page.locator('[data-testid="query-table"] tbody tr[data-query]');
    expect(await rows.count()).toBe(22);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [Number(tr.getAttribute('data-query')), Number(tr.querySelector('td[data-seconds]')?.getAttribute('data-seconds'))] as const));
    expect(shown.map(([q]) => q).sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    for (const [q, s] of shown) expect(s).toBe(r.queries.find((x) => x.query === q)!.seconds);
    expect(Number(await page.getByTestId('result-geomean').getAttribute('data-value'))).toBeCloseTo(r.geomean, 12);
    expect(await page.getByTestId('result-line').textContent()).toBe(r.line);
    expect(r.line).toMatch(/^Geometric mean of query times returning rows \(\d+\) is \d+\.\d{5}$/);
    // TPROC-H computes no validity verdict: no "Validity not computed (stored before verdicts)" panel.
    expect(await page.getByTestId('validity-panel').count()).toBe(0);
    await shot(page, 'duckdb-job-page');

    // The process CPU of each query (DuckDB runs in the server's process), as stored in the result.
    for (const x of r.queries) expect(x.cpuSeconds).toBeGreaterThanOrEqual(0);
    const q1 = r.queries.find((x) => x.query === 1)!;
    expect(Number(await page.locator('tr[data-query="1"] [data-cpu-seconds]').getAttribute('data-cpu-seconds'))).toBe(q1.cpuSeconds);
    // DuckDB's profile of Q1 beside its plan: operators as stored (tproch-profile), the scan of LINEITEM among them.
    const stored = (await api<{ query: number; profile: { operators: { name: string; rows: number; detail?: string }[] } }[]>(server.url, 'GET', `/jobs/${id}/profiles`)).body;
    expect(stored.map((m) => m.query).sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    const ops = stored.find((m) => m.query === 1)!.profile.operators;
    expect(ops.some((o) => /SCAN/.test(o.name) && o.detail?.includes('lineitem'))).toBe(true);
    await page.getByTestId('plan-q1').click();
    await page.getByTestId('plan-text-q1').waitFor();
    const prof = page.getByTestId('profile-q1');
    await prof.waitFor();
    expect(await prof.locator('h5').textContent()).toMatch(/^Profile \(stream 0, set 1\): \d+\.\d+ s, engine CPU \d+\.\d+ s$/);
    expect(await prof.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-operator')))).toEqual(ops.slice(0, 80).map((o) => o.name));
    await shot(page, 'duckdb-job-profile');
  });
});

describe('CH-benCHmark on DuckDB (analytic streams only)', () => {
  it('builds 1 warehouse from the Schema page into a file of its own', async () => {
    await nav(page, 'Target');
    await fill(page, 'target.file', CH_FILE);
    await nav(page, 'Schema');
    await page.locator('input[data-workload="chbench"]').check();
    expect(await page.locator('input[data-workload="chbench"]').isChecked()).toBe(true);
    expect(await page.getByTestId('limited-chbench').textContent()).toMatch(/^ \(Analytic streams only: runs take tprocc\.vus 0\.?\)$/);
    await fill(page, 'tprocc.warehouses', '1');
    await fill(page, 'tprocc.buildVus', '1');
    const id = await startJob(page, 'build-schema');
    expect(await waitForJobEnd(page, id, 240_000)).toBe('completed');
    const build = await jobOf(id);
    expect(build).toMatchObject({ type: 'build', workload: 'chbench', engine: 'duckdb' });
    expect(fileOf(build).file.endsWith(CH_FILE)).toBe(true);
  }, 300_000);

  it('the Run page defaults to 0 TPROC-C VUs, and a run with the defaults starts and completes', async () => {
    await nav(page, 'Run');
    const vus = page.locator('[data-field="tprocc.vus"]');
    await vus.waitFor();
    expect(await vus.inputValue()).toBe('0');
    expect(await page.locator('[data-field="chbench.analyticStreams"]').inputValue()).toBe('1');
    // The field says why (capabilities' limited.chbench).
    expect(await page.locator('.field', { has: vus }).textContent()).toContain('0 on DuckDB: it runs the analytic streams alone, no TPROC-C transactions');
    // A short window; the VUs and streams stay at their defaults.
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.1');
    await shot(page, 'duckdb-chbench-run-form');
    const id = await startJob(page, 'start-run');
    expect(await waitForJobEnd(page, id, 180_000)).toBe('completed');
    const job = await jobOf(id);
    expect(job).toMatchObject({ type: 'run', workload: 'chbench', engine: 'duckdb' });
    expect(job.config).toMatchObject({ tprocc: { vus: 0 }, chbench: { analyticStreams: 1 } });
    expect(fileOf(job).file.endsWith(CH_FILE)).toBe(true);
    const r = job.result as ChbenchResult;
    expect(r).toMatchObject({ nopm: 0, tpm: 0, activeVus: 0, warehouses: 1 });
    expect(r.analytic.streams).toBe(1);
    expect(r.analytic.errors).toBe(0);
    await shot(page, 'duckdb-chbench-run-done');
  }, 240_000);
});
