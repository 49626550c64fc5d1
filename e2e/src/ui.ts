import type { Job } from '@sledge/protocol';
import type { Page } from 'playwright-core';

/** Small helpers over the dashboard's labelled, data-field-tagged inputs. */

export async function fill(page: Page, field: string, value: string): Promise<void> {
  await page.locator(`[data-field="${field}"]`).fill(value);
}

export async function nav(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}

/**
 * Click a button that starts a job and wait until the job panel shows the job the click created; returns its id.
 * The id is the one in the answer to the click's (first) POST /api/v1/jobs (a VU sequence posts its runs one after
 * another, and the panel shows the first): under load the panel may first switch to another job, e.g. one an earlier
 * test queued over REST, so "the panel's id changed" does not say which job the click made.
 */
export async function startJob(page: Page, testId: string): Promise<string> {
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/jobs', { timeout: 30_000 });
  await page.getByTestId(testId).click();
  const res = await created;
  const body = (await res.json().catch(() => null)) as { id?: string } | null;
  if (res.status() !== 201 || !body?.id) throw new Error(`${testId}: POST /api/v1/jobs answered ${res.status()} ${JSON.stringify(body)}`);
  await page.waitForFunction((id) => document.querySelector('.job-panel')?.getAttribute('data-job-id') === id, body.id, { timeout: 30_000, polling: 100 });
  return body.id;
}

/** Wait until the panel of job `id` reports a terminal status; returns it. */
export async function waitForJobEnd(page: Page, id: string, timeoutMs: number): Promise<string> {
  const panel = page.locator(`.job-panel[data-job-id="${id}"]`);
  await panel.waitFor({ timeout: timeoutMs });
  await page.waitForFunction(
    (jobId) => {
      const s = document.querySelector(`.job-panel[data-job-id="${jobId}"]`)?.getAttribute('data-status');
      return s === 'completed' || s === 'failed' || s === 'stopped' || s === 'interrupted';
    },
    id,
    { timeout: timeoutMs, polling: 250 },
  );
  return (await panel.getAttribute('data-status')) ?? '';
}

/** Points fed to a chart (its data-points attribute). */
export async function chartPoints(page: Page, testId: string): Promise<number> {
  return Number((await page.locator(`[data-testid="${testId}"]`).first().getAttribute('data-points')) ?? '0');
}

export async function jobCount(base: string): Promise<number> {
  const r = await fetch(`${base}/api/v1/jobs?limit=1`);
  return ((await r.json()) as { total: number }).total;
}

/** A REST call to the server's /api/v1 (with its bearer token when the server has one). */
export async function api<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${base}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
}

const ENDED = ['completed', 'failed', 'stopped', 'interrupted'];

/** Poll job `id` over REST until it ends (completed, failed, stopped, interrupted); returns it. */
export async function waitJob(base: string, id: string, opts: { token?: string; timeoutMs?: number } = {}): Promise<Job> {
  const deadline = Date.now() + (opts.timeoutMs ?? 300_000);
  for (;;) {
    const j = (await api<Job>(base, 'GET', `/jobs/${id}`, undefined, opts.token)).body;
    if (ENDED.includes(j.status)) return j;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${j.status} after ${opts.timeoutMs ?? 300_000} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** POST a job over REST (it must be accepted: 201) and wait until it ends; returns it. */
export async function jobToEnd(base: string, body: unknown, opts: { token?: string; timeoutMs?: number } = {}): Promise<Job> {
  const r = await api<{ id: string }>(base, 'POST', '/jobs', body, opts.token);
  if (r.status !== 201) throw new Error(`POST /jobs answered ${r.status}: ${JSON.stringify(r.body)}`);
  return waitJob(base, r.body.id, opts);
}

/** Time (ms) from changing a <select> in the page to the next painted frame. */
export async function timeSelectChange(page: Page, testId: string, value: string): Promise<number> {
  return page.evaluate(
    async ({ testId, value }) => {
      const sel = document.querySelector(`[data-testid="${testId}"]`) as HTMLSelectElement;
      const t0 = performance.now();
      sel.value = value;
      sel.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
      return performance.now() - t0;
    },
    { testId, value },
  );
}

/** On the Target page, pick the SQLite engine and its database file. */
export async function pickSqlite(page: Page, base: string, file: string): Promise<void> {
  await page.goto(`${base}/targets`);
  await page.locator('label[data-engine="sqlite"]').click();
  await fill(page, 'target.file', file);
}

/** Build a 1-warehouse TPROC-C schema in SQLite file `file` through the Target and Schema pages; fails unless it completes. */
export async function buildSqliteTprocc(page: Page, base: string, file: string, timeoutMs = 180_000): Promise<string> {
  await pickSqlite(page, base, file);
  await nav(page, 'Schema');
  await fill(page, 'tprocc.warehouses', '1');
  await fill(page, 'tprocc.buildVus', '1');
  const id = await startJob(page, 'build-schema');
  const status = await waitForJobEnd(page, id, timeoutMs);
  if (status !== 'completed') throw new Error(`the SQLite TPROC-C build ${id} ended ${status}`);
  return id;
}
