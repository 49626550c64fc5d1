import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job, ProfileScalability } from '@sledge/protocol';
import { shot, type Chromium } from './browser.js';
import type { RunningServer } from './server.js';
import { api, chartPoints } from './ui.js';
import { pgTarget } from './targets.js';
import { openSession, closeSession } from './session.js';

/**
 * The scalability explainer in the browser: a performance profile of 1, 2, 4
 * and 8 VUs on PostgreSQL (one warehouse, 6 s runs with the time profile on),
 * then Compare ?profile= shows the USL chart (measured points and the fitted
 * curve), the summary (σ, κ, the peak or ceiling, the knee) and each step's
 * named wait events, the same as GET /profiles/:id/scalability says.
 */

const TARGET = pgTarget('usl_explainer_e2e');
const PROFILE = 8;

let server: RunningServer;
let browser: Chromium;
let page: Page;

beforeAll(async () => {
  ({ server, browser, page } = await openSession({ viewport: { width: 1280, height: 1100 } }));
});

afterAll(async () => {
  if (server) await api(server.url, 'POST', '/jobs', { type: 'delete', target: TARGET }).catch(() => undefined);
  await closeSession({ browser, server });
});

async function run(body: Record<string, unknown>): Promise<Job> {
  const r = await api<Job>(server.url, 'POST', '/jobs', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  let job = r.body;
  await expect
    .poll(
      async () => {
        job = (await api<Job>(server.url, 'GET', `/jobs/${r.body.id}`)).body;
        return ['completed', 'failed', 'stopped'].includes(job.status);
      },
      { timeout: 180_000, interval: 500 },
    )
    .toBe(true);
  return job;
}

describe('profile scalability on the Compare page', () => {
  it('draws the USL fit over the measured NOPM and names the waits of each step', async () => {
    await run({ type: 'delete', target: TARGET });
    expect((await run({ type: 'build', target: TARGET, tprocc: { warehouses: 1 } })).status).toBe('completed');
    for (const vus of [1, 2, 4, 8]) {
      const j = await run({ type: 'run', target: TARGET, profileId: PROFILE, tprocc: { vus, rampup: 0, duration: 0.1, timeProfile: true }, label: `usl ${vus} VU` });
      expect(j.status, JSON.stringify(j.error)).toBe('completed');
    }
    const rest = (await api<ProfileScalability>(server.url, 'GET', `/profiles/${PROFILE}/scalability`)).body;
    expect(rest.fit).not.toBeNull();

    await page.goto(`${server.url}/compare?profile=${PROFILE}`);
    const summary = page.getByTestId('scalability-summary');
    await summary.waitFor({ timeout: 30_000 });
    const text = (await summary.textContent()) ?? '';
    expect(text).toBe(rest.summary);
    expect(text).toMatch(/^Contention σ=[\d.e-]+, coherency κ=[\d.e-]+ \(R²=[\d.-]+\); (predicted peak [\d,.]+ VUs? at [\d,]+ NOPM|no peak: [^;]+); (the latency knee at \d+ VUs|no latency knee)/);
    // The chart holds the 4 measured points and the fitted curve.
    await expect.poll(() => chartPoints(page, 'scalability-chart'), { timeout: 20_000 }).toBeGreaterThan(4 + 10);
    // Each step names its top wait events as Class:event (an event named as its class, CPU, by its name alone).
    const rows = page.getByTestId('scalability-steps').locator('tbody tr');
    expect(await rows.count()).toBe(4);
    // A step whose short runs the sampler never caught active (1 VU on a loaded machine spends its
    // time in the client) says so instead of naming waits; the 8-VU step always has samples.
    const waitsCells = await Promise.all([0, 1, 2, 3].map(async (i) => (await rows.nth(i).locator('td').nth(5).textContent()) ?? ''));
    for (const [i, cell] of waitsCells.entries()) {
      const step = rest.steps[i]!;
      if (step.waits.some((w) => w.kind === 'event')) expect(cell).toMatch(/([A-Za-z]+:)?[A-Za-z]+ [\d.]+%/);
      else expect(cell).toBe('no active-session samples');
    }
    expect(waitsCells[3]).toMatch(/([A-Za-z]+:)?[A-Za-z]+ [\d.]+%/);
    await page.waitForTimeout(800);
    await shot(page, 'compare-profile-scalability');
  });
});
