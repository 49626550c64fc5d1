import type { Page } from 'playwright-core';

/** Small helpers over the dashboard's labelled, data-field-tagged inputs. */

export async function fill(page: Page, field: string, value: string): Promise<void> {
  await page.locator(`[data-field="${field}"]`).fill(value);
}

export async function nav(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}

/** The id of the job the page's job panel shows (null when none). */
export async function panelJobId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.querySelector('.job-panel')?.getAttribute('data-job-id') ?? null);
}

/** Click a button that starts a job and wait until the job panel shows the new job (not the page's previous one); returns its id. */
export async function startJob(page: Page, testId: string): Promise<string> {
  const before = await panelJobId(page);
  await page.getByTestId(testId).click();
  await page.waitForFunction((prev) => {
    const id = document.querySelector('.job-panel')?.getAttribute('data-job-id');
    return !!id && id !== prev;
  }, before, { timeout: 30_000, polling: 100 });
  return (await panelJobId(page))!;
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

export async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(`${base}/api/v1${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
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
