import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Job, ReplicaList, ReplicaRunFields, TproccResult } from '@sledge/protocol';
import { launch, shot, shotOf, type Chromium } from './browser.js';
import { startNats, startReplica, type RunningNats, type RunningReplica } from './nats.js';
import { startServer, type RunningServer } from './server.js';
import { api, fill, jobCount, nav, startJob, waitForJobEnd, waitJob } from './ui.js';
import { pgTarget } from './targets.js';

/**
 * Scale-out in the browser: a nats-server of the test's own (token auth), the
 * built server joined to it (SLEDGE_NATS_URL / SLEDGE_NATS_TOKEN) and two
 * `sledge replica` processes, r1 and r2, on PostgreSQL (a SQLite file would be
 * opened on each replica's own disk). The Replicas page lists both ready; the
 * Run form's "Where VUs run" shows the server's refusal of a VU split that does
 * not add up at its control, then runs 2 VUs on all ready replicas; the live
 * panel and the job page show the Replicas table with both. Then a third
 * replica killed mid-run (SIGKILL) shows as lost on the Replicas page, and its
 * "Lost at" is highlighted in the job's Replicas table.
 */

const DB = 'sledge_e2e_replicas';
const TOKEN = 'e2e-replicas-token';
const PG_TARGET = pgTarget(DB);

let nats: RunningNats;
let server: RunningServer;
let replicas: RunningReplica[] = [];
let browser: Chromium;
let page: Page;
let runId = '';

async function deleteSchema(): Promise<void> {
  const r = await api<Job>(server.url, 'POST', '/jobs', { type: 'delete', target: PG_TARGET });
  if (r.status === 201) await waitJob(server.url, r.body.id, { timeoutMs: 120_000 });
}

/** Both themes: the page as it is, then dark, then back to light. */
async function shotBoth(p: Page, name: string): Promise<void> {
  await shot(p, `${name}-light`);
  await p.getByTestId('theme-toggle').click();
  await p.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
  await shot(p, `${name}-dark`);
  await p.getByTestId('theme-toggle').click();
  await p.waitForFunction(() => document.documentElement.dataset['theme'] !== 'dark');
}

beforeAll(async () => {
  nats = await startNats(TOKEN);
  server = await startServer({ env: { SLEDGE_NATS_URL: nats.url, SLEDGE_NATS_TOKEN: TOKEN } });
  replicas = [startReplica('r1', nats.url, TOKEN), startReplica('r2', nats.url, TOKEN)];
  // A schema left by an interrupted earlier run would make the build refuse: remove it, then build 1 warehouse over REST.
  await deleteSchema();
  const build = await api<Job>(server.url, 'POST', '/jobs', { type: 'build', target: PG_TARGET, tprocc: { warehouses: 1, buildVus: 1 } });
  expect(build.status).toBe(201);
  const built = await waitJob(server.url, build.body.id, { timeoutMs: 180_000 });
  expect(built.status, JSON.stringify(built.error)).toBe('completed');
  browser = await launch();
  page = await browser.page();
  page.on('pageerror', (e) => console.error('pageerror', e.message));
}, 300_000); // it builds a PostgreSQL schema: a timeout of its own, not the 120 s hook default

afterAll(async () => {
  await browser?.close();
  if (server) await deleteSchema().catch((e: unknown) => console.error('schema delete failed', e));
  await Promise.all(replicas.map((r) => r.stop()));
  await server?.stop();
  await nats?.stop();
});

describe('scale-out over NATS in the browser', () => {
  it('the Replicas page lists r1 and r2 ready, with the NATS URL, authentication, CPU and version', async () => {
    await page.goto(`${server.url}/jobs`);
    await nav(page, 'Replicas');
    await expect.poll(() => page.url()).toMatch(/\/replicas$/);
    const row = (n: string) => page.locator(`[data-testid="replicas-table"] tr[data-replica="${n}"]`);
    // The page refreshes every 2 s: the replicas appear without a reload once they have joined.
    await page.waitForFunction(
      () => ['r1', 'r2'].every((n) => document.querySelector(`[data-testid="replicas-table"] tr[data-replica="${n}"]`)?.getAttribute('data-state') === 'ready'),
      undefined,
      { timeout: 90_000, polling: 250 },
    );
    expect(await page.locator('[data-testid="replicas-table"] tbody tr').count()).toBe(2);
    expect(await page.getByTestId('replicas-nats-url').textContent()).toBe(nats.url);
    expect(await page.getByTestId('replicas-auth').getAttribute('data-auth')).toBe('true');
    expect(await page.getByTestId('replicas-auth-warning').count()).toBe(0);
    expect(await page.getByTestId('replicas-counts').textContent()).toMatch(/2 ready · 0 busy · 0 lost/);
    for (const n of ['r1', 'r2']) {
      expect(await row(n).locator('.pill').textContent()).toMatch(/ready/);
      expect(await row(n).textContent()).toMatch(/postgresql/);
      expect(await row(n).getByTestId('version-mismatch').count()).toBe(0);
    }
    // Machine CPU arrives with the second heartbeat: wait for a bar on both rows.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="replicas-table"] [data-testid="replica-cpu"] .cpu-bar').length === 2, undefined, { timeout: 15_000 });
    const listed = (await api<ReplicaList>(server.url, 'GET', '/replicas')).body;
    expect(listed.replicas.map((r) => `${r.name}:${r.state}`)).toEqual(['r1:ready', 'r2:ready']);
    await shotBoth(page, 'replicas-page');
  });

  it('the Run form shows the server\'s refusal at "Where VUs run", then runs 2 VUs on all ready replicas; the live panel shows the Replicas table', async () => {
    await nav(page, 'Target');
    await page.locator('label[data-engine="postgresql"]').click();
    for (const [k, v] of Object.entries(PG_TARGET)) if (k !== 'engine') await fill(page, `target.${k}`, String(v));
    await nav(page, 'Run');
    await page.locator('[data-field="tprocc.driver"]').selectOption('timed');
    await fill(page, 'tprocc.vus', '2');
    await fill(page, 'tprocc.rampup', '0');
    await fill(page, 'tprocc.duration', '0.2');
    const placement = page.getByTestId('placement');
    await placement.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('placement-local').isChecked()).toBe(true);

    // Chosen replicas: none ticked is refused in the form; r1 with 1 VU of the run's 2 is refused by the server, at the control.
    const before = await jobCount(server.url);
    await page.getByTestId('placement-chosen').check();
    await page.getByTestId('start-run').click();
    await expect.poll(() => page.getByTestId('placement-error').textContent()).toMatch(/at least one replica/);
    await page.getByTestId('placement-pick-r1').check();
    await page.getByTestId('placement-vus-r1').fill('1');
    expect(await page.getByTestId('placement-sum').textContent()).toBe('1 of 2 (must be equal)');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/v1/jobs') && r.request().method() === 'POST');
    await page.getByTestId('start-run').click();
    const res = await refused;
    expect(res.status()).toBe(400);
    expect((res.request().postDataJSON() as { placement: unknown }).placement).toEqual({ on: 'replicas', replicas: ['r1'], vus: { r1: 1 } });
    await expect.poll(() => page.getByTestId('placement-error').textContent()).toMatch(/adds up to 1 VUs but the run has 2/);
    expect(await jobCount(server.url)).toBe(before);
    await shot(page, 'replicas-run-form-refused');

    // All ready replicas: an even spread, 1 VU each.
    await page.getByTestId('placement-all').check();
    expect(await page.getByTestId('placement-error').count()).toBe(0);
    expect(await page.getByTestId('placement-help').textContent()).toMatch(/r1 1 VU, r2 1 VU/);
    await shot(page, 'replicas-run-form');
    const create = page.waitForRequest((r) => r.url().endsWith('/api/v1/jobs') && r.method() === 'POST');
    runId = await startJob(page, 'start-run');
    expect(((await create).postDataJSON() as { placement: unknown }).placement).toEqual({ on: 'replicas' });
    expect(await page.getByTestId('run-summary').textContent()).toMatch(/on all ready replicas/);
    // While it runs, the Replicas page shows both busy with this job (a link to it).
    const replicaStates = async () => (await api<ReplicaList>(server.url, 'GET', '/replicas')).body.replicas.map((r) => `${r.name}:${r.state}:${r.jobId}`);
    await expect.poll(replicaStates, { timeout: 30_000 }).toEqual([`r1:busy:${runId}`, `r2:busy:${runId}`]);

    expect(await waitForJobEnd(page, runId, 120_000)).toBe('completed');
    // The live panel gets the result: the Replicas table appears without a reload.
    const live = page.locator(`.job-panel[data-job-id="${runId}"] [data-testid="replica-results"]`);
    await live.waitFor({ timeout: 15_000 });
    expect(await live.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-replica')))).toEqual(['r1', 'r2']);
    await expect.poll(replicaStates, { timeout: 15_000 }).toEqual(['r1:ready:null', 'r2:ready:null']);
  });

  it('the job page shows the Replicas table: both replicas, 1 VU each, client TPM, no loss', async () => {
    const job = (await api<Job>(server.url, 'GET', `/jobs/${runId}`)).body;
    const result = job.result as TproccResult & { replicas: ReplicaRunFields[] };
    expect(result.replicas.map((r) => [r.name, r.vus.length])).toEqual([
      ['r1', 1],
      ['r2', 1],
    ]);
    await page.goto(`${server.url}/jobs/${runId}`);
    const table = page.getByTestId('replica-results');
    await table.waitFor({ timeout: 15_000 });
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    for (const [i, r] of result.replicas.entries()) {
      const row = rows.nth(i);
      expect(await row.getAttribute('data-replica')).toBe(r.name);
      expect(r.transactions).toBeGreaterThan(0);
      expect(Number(await row.getByTestId('replica-client-tpm').getAttribute('data-value'))).toBe(r.clientTpm);
      expect(await row.locator('td').nth(0).textContent()).toBe(`1 (${r.vus[0]})`);
      expect(await row.locator('td').nth(3).textContent()).toBe(`${r.finishedVus} of 1`);
      expect(await row.locator('td').nth(4).textContent()).toBe('–');
      expect(r.lostAt).toBeUndefined();
    }
    expect(await table.locator('tfoot').textContent()).toMatch(/^all2/);
    expect(await page.getByTestId('result-nopm').getAttribute('data-value')).toBe(String(result.nopm));
    expect(await page.getByTestId('job-placement').textContent()).toBe('on all ready replicas');
    await shotBoth(page, 'replicas-job-page');
  });

  // The loss itself (lostAt, failed VUs, the output line) is also asserted against real replica processes in
  // apps/cli/test/replicas-postgresql.test.ts ("a replica killed mid-run (SIGKILL) ..."). A replica process starting on a
  // loaded 2-core host can take well over 30 s to say hello: its wait is 90 s.
  it('a replica killed mid-run shows as lost: highlighted on the Replicas page and in the job\'s Replicas table', async () => {
    const r3 = startReplica('r3', nats.url, TOKEN);
    replicas.push(r3);
    const stateOf = async (n: string) => (await api<ReplicaList>(server.url, 'GET', '/replicas')).body.replicas.find((r) => r.name === n)?.state;
    await expect.poll(() => stateOf('r3'), { timeout: 90_000 }).toBe('ready');
    await nav(page, 'Run');
    if (await page.getByTestId('edit-run-settings').isVisible()) await page.getByTestId('edit-run-settings').click();
    // 30 s: the loss is declared 5 s after the kill, well inside the window even on a loaded CI host.
    await fill(page, 'tprocc.duration', '0.5');
    // The form remembered the choice of the refused attempt (r1 with 1 VU): add r3 with 1 VU.
    await page.getByTestId('placement-chosen').check();
    expect(await page.getByTestId('placement-pick-r1').isChecked()).toBe(true);
    expect(await page.getByTestId('placement-vus-r1').inputValue()).toBe('1');
    await page.getByTestId('placement-pick-r3').check();
    await page.getByTestId('placement-vus-r3').fill('1');
    expect(await page.getByTestId('placement-sum').textContent()).toBe('2 of 2');
    const create = page.waitForRequest((r) => r.url().endsWith('/api/v1/jobs') && r.method() === 'POST');
    const id = await startJob(page, 'start-run');
    expect(((await create).postDataJSON() as { placement: unknown }).placement).toEqual({ on: 'replicas', replicas: ['r1', 'r3'], vus: { r1: 1, r3: 1 } });
    await expect.poll(async () => (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body.status, { timeout: 60_000 }).toBe('measuring');
    await new Promise((r) => setTimeout(r, 3000));
    r3.proc.kill('SIGKILL');
    expect(await waitForJobEnd(page, id, 120_000)).toBe('completed');
    // The stored result first (with the run's output in the message if the loss is missing), then what the page shows.
    const ended = (await api<Job>(server.url, 'GET', `/jobs/${id}`)).body;
    const r3Result = ((ended.result as TproccResult & { replicas?: ReplicaRunFields[] }).replicas ?? []).find((x) => x.name === 'r3');
    if (r3Result?.lostAt === undefined) {
      const out = (await api<{ lines: { vu: number; text: string }[] }>(server.url, 'GET', `/jobs/${id}/output?limit=200`)).body.lines.map((l) => `${l.vu}: ${l.text}`);
      expect.fail(`r3 has no lostAt in the result ${JSON.stringify(r3Result)}; r3 log:\n${r3.log().slice(-2000)}\noutput:\n${out.join('\n')}`);
    }
    const lostRow = page.locator(`.job-panel[data-job-id="${id}"] [data-testid="replica-results"] tbody tr[data-replica="r3"]`);
    await lostRow.waitFor({ timeout: 15_000 });
    expect(await lostRow.getAttribute('class')).toBe('row-lost');
    expect(await lostRow.locator('td').nth(4).textContent()).toMatch(/^✗ \d\d:\d\d:\d\d$/);
    expect(await lostRow.locator('td').nth(3).textContent()).toBe('0 of 1');
    expect(await page.getByTestId('replica-results').locator('.card-head').textContent()).toMatch(/1 lost during the run/);

    await nav(page, 'Replicas');
    const row = page.locator('[data-testid="replicas-table"] tr[data-replica="r3"]');
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('lost');
    expect(await row.getAttribute('class')).toBe('row-lost');
    expect(await row.locator('.pill').textContent()).toMatch(/lost/);
    expect(await page.getByTestId('replicas-counts').textContent()).toMatch(/2 ready · 0 busy · 1 lost/);
    await shotBoth(page, 'replicas-page-lost');

    await page.goto(`${server.url}/jobs/${id}`);
    await page.getByTestId('replica-results').waitFor({ timeout: 15_000 });
    await shotOf(page.getByTestId('replica-results'), 'replicas-job-lost-light');
    await page.getByTestId('theme-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    await shotOf(page.getByTestId('replica-results'), 'replicas-job-lost-dark');
    await page.getByTestId('theme-toggle').click();
  });
});

describe('scale-out off, and on NATS without authentication', () => {
  it('a server without SLEDGE_NATS_URL: the Replicas page says how to turn scale-out on; the Run form has no Where VUs run', async () => {
    const plain = await startServer();
    try {
      await page.goto(`${plain.url}/replicas`);
      const off = page.getByTestId('replicas-disabled');
      await off.waitFor({ timeout: 15_000 });
      const text = (await off.textContent()) ?? '';
      for (const must of ['SLEDGE_NATS_URL', 'SLEDGE_NATS_TOKEN', 'sledge replica --nats', '--token', '--name', 'nats-server -js']) expect(text).toContain(must);
      await shotBoth(page, 'replicas-page-off');
      await nav(page, 'Run');
      await page.getByTestId('start-run').waitFor();
      expect(await page.getByTestId('placement').count()).toBe(0);
    } finally {
      await plain.stop();
    }
  });

  it('a server on NATS without authentication: the Replicas page warns; a run on replicas is refused by the server and the form shows why', async () => {
    const open = await startNats(null);
    const unauth = await startServer({ env: { SLEDGE_NATS_URL: open.url } });
    const r = startReplica('open1', open.url, null);
    try {
      await page.goto(`${unauth.url}/replicas`);
      await page.waitForFunction(() => document.querySelector('[data-testid="replicas-table"] tr[data-replica="open1"]')?.getAttribute('data-state') === 'ready', undefined, { timeout: 30_000, polling: 250 });
      expect(await page.getByTestId('replicas-auth').getAttribute('data-auth')).toBe('false');
      expect(await page.getByTestId('replicas-auth-warning').textContent()).toMatch(/does not authenticate, so runs on replicas are refused/);
      await shotBoth(page, 'replicas-page-unauthenticated');
      await nav(page, 'Run');
      await page.getByTestId('placement-all').check();
      expect(await page.getByTestId('placement').textContent()).toMatch(/does not authenticate: runs on replicas are refused/);
      // This browser's workbench is on SQLite here (a new origin): the form says a replica would open its own file.
      expect(await page.getByTestId('placement-sqlite').textContent()).toMatch(/each replica opens the file at that path on its own machine/);
      const before = await jobCount(unauth.url);
      const refused = page.waitForResponse((x) => x.url().endsWith('/api/v1/jobs') && x.request().method() === 'POST');
      await page.getByTestId('start-run').click();
      const res = await refused;
      expect(res.status()).toBe(400);
      await expect.poll(() => page.getByTestId('placement-error').textContent()).toMatch(/NATS connection does not authenticate.*SLEDGE_NATS_TOKEN/);
      expect(await jobCount(unauth.url)).toBe(before);
      await shot(page, 'replicas-run-form-unauthenticated');
    } finally {
      await r.stop();
      await unauth.stop();
      await open.stop();
    }
  });
});
