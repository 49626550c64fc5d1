import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TimingRow, VuStatus } from '@sledge/protocol';
import { loadPgVuLoop } from '@sledge/worker-native';
import { buildApp, type AppOptions } from '../dist/app.js';
import { PACED, expectTpmOverNopm, get, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';
import { copyPgTprocc } from './live-template.js';
import { quiet, quietTimeout } from '../../scripts/test-quiet.mjs';

/**
 * The native libpq VU loop through the server: the same transactions as the
 * TypeScript loop (test driver, same seed), a timed run with HammerDB's
 * ratios, the new-order rollbacks, timings, checkschema after, stop, reconnect
 * after pg_terminate_backend, and the fallback to TypeScript when the addon
 * is missing.
 */
const target = {
  engine: 'postgresql',
  host: '127.0.0.1',
  port: 5432,
  user: 'sledge_native_pg',
  password: 'native-pw-test',
  database: 'sledge_native_pg',
  superuser: 'postgres',
  superuserPassword: 'postgres',
};

/** libpq headers present => the build must have produced the loop; absent => these tests cannot run here. */
const pgConfig = spawnSync('pg_config', ['--includedir'], { encoding: 'utf8' });
const libpqHeaders = pgConfig.status === 0 && existsSync(join(pgConfig.stdout.trim(), 'libpq-fe.h'));
const loop = loadPgVuLoop();

function psql(sql: string): string {
  const r = spawnSync('psql', ['-X', '-At', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
  return r.stdout.trim();
}

async function app(o: Partial<AppOptions> = {}): Promise<SledgeApp> {
  return buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-native-vu-')), logger: false, uiDir: null, ...o });
}

async function output(s: SledgeApp, id: string): Promise<{ vu: number; text: string }[]> {
  return (await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=10000`)).lines;
}

async function run(s: SledgeApp, tprocc: Record<string, unknown>, seed?: number): Promise<Job> {
  const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc, ...(seed !== undefined ? { seed } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return waitJob(s, String(r.body.id));
}

const TX_LINE = /^(New Order|Payment|Delivery|Stock Level|Order Status): (.*): (commit|rollback) \(\d+\.\d{3} ms\)$/;

describe('native VU loop on PostgreSQL', () => {
  it('is built wherever libpq headers are installed', () => {
    if (libpqHeaders) expect(loop.available, loop.available ? '' : loop.reason).toBe(true);
    else expect(loop.available).toBe(false);
  });
});

describe.skipIf(!loop.available)('native VU loop on PostgreSQL (server)', () => {
  let s: SledgeApp;
  let tsApp: SledgeApp;

  beforeAll(async () => {
    s = await app();
    tsApp = await app({ vuLoop: 'typescript' });
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    await waitJob(s, String(del.body.id));
    await copyPgTprocc({ database: target.database, user: target.user, password: target.password });
  });
  afterAll(async () => {
    if (s) {
      const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
      if (del.status === 201) await waitJob(s, String(del.body.id));
      await s.app.close();
    }
    await tsApp?.app.close();
  });

  it('test driver: the same transactions as the TypeScript loop for the same seed (2 iterations each); flagged new orders roll back, the others commit', async () => {
    const tprocc = { driver: 'test', vus: 2, totalIterations: 200, iterations: 2, repeatDelayMs: 100, userDelayMs: 0 };
    const seed = 20261122;
    const nat = await run(s, tprocc, seed);
    expect(nat.status, JSON.stringify(nat.error)).toBe('completed');
    const ts = await run(tsApp, tprocc, seed);
    expect(ts.status, JSON.stringify(ts.error)).toBe('completed');
    const natOut = await output(s, nat.id);
    const tsOut = await output(tsApp, ts.id);
    expect(natOut.map((l) => l.text)).toContain('Virtual users run in the native libpq loop');
    expect(tsOut.map((l) => l.text)).toContain('Virtual users run in JavaScript (vuLoop is typescript)');
    for (const vu of [2, 3]) {
      const lines = (out: typeof natOut) => out.filter((l) => l.vu === vu && TX_LINE.test(l.text)).map((l) => TX_LINE.exec(l.text)!);
      const n = lines(natOut);
      const t = lines(tsOut);
      expect(n).toHaveLength(400);
      // Type and inputs, transaction by transaction.
      expect(n.map((m) => `${m[1]}: ${m[2]}`)).toEqual(t.map((m) => `${m[1]}: ${m[2]}`));
      // The outcome follows the input's rollback flag (spec 2.4.1.4), in both loops.
      for (const m of [...n, ...t]) expect(m[3]).toBe(m[2]!.endsWith('(invalid item: rollback)') ? 'rollback' : 'commit');
    }
    expect(natOut.filter((l) => /\(invalid item: rollback\): rollback/.test(l.text)).length).toBeGreaterThan(0);
    expect(natOut.map((l) => l.text)).toContain('Vuser 2:FINISHED SUCCESS');
    const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${nat.id}/vus`);
    expect(vus.map((v) => [v.vu, v.state, v.commits + v.rollbacks, v.errors])).toEqual([
      [2, 'finished', 400, 0],
      [3, 'finished', 400, 0],
    ]);
    expect(JSON.stringify(natOut)).not.toContain(target.password);
  });

  it('timed run: NOPM > 0, TPM/NOPM in HammerDB range, ~1% new-order rollbacks, time profile, client CPU; schema consistent after', () =>
    quiet(async () => {
      const job = await run(s, { vus: 2, rampup: 0, duration: 0.5, tcRefreshSec: 5, userDelayMs: 0 });
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const res = job.result!;
      expect(res.nopm).toBeGreaterThan(0);
      expect(res.tpmSource).toBe('engine');
      expectTpmOverNopm(res, 1.8);
      expect(res.clientCpuMsPer1000Tx).toBeGreaterThan(0);
      const out = (await output(s, job.id)).map((l) => l.text);
      expect(out).toContain('Virtual users run in the native libpq loop');
      expect(out.some((l) => /^Client CPU: [\d.]+ ms per 1000 transactions/.test(l))).toBe(true);
      expect(out.filter((l) => /^Vuser [23]:FINISHED SUCCESS$/.test(l))).toHaveLength(2);
      // Time profile from the native latency records: every type, plausible percentiles.
      const rows = await get<TimingRow[]>(s, `/api/v1/jobs/${job.id}/timing`);
      const summary = rows.filter((r) => r.vu === 0);
      expect(summary.map((r) => r.proc).sort()).toEqual(['DELIVERY', 'NEWORD', 'OSTAT', 'PAYMENT', 'SLEV']);
      for (const r of summary) {
        expect(r.calls).toBeGreaterThan(0);
        expect(r.p50Ms).toBeGreaterThan(0);
        expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
      }
      // New-order rollbacks: ~1% of new orders (each a binomial draw; bounds generous for a 30 s run).
      const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${job.id}/vus`);
      const rollbacks = vus.reduce((a, v) => a + v.rollbacks, 0);
      const neword = summary.find((r) => r.proc === 'NEWORD')!.calls;
      expect(vus.every((v) => v.errors === 0)).toBe(true);
      expect(rollbacks / neword).toBeGreaterThan(0.003);
      expect(rollbacks / neword).toBeLessThan(0.025);
      // Latency series from the interval histograms.
      const lat = await get<unknown[]>(s, `/api/v1/jobs/${job.id}/latency`);
      expect(lat.length).toBeGreaterThan(5);
      const c = await post(s, '/api/v1/jobs', { type: 'check', target });
      const checked = await waitJob(s, String(c.body.id));
      const failedChecks = (await output(s, checked.id)).map((l) => l.text).filter((t) => /fail|error|inconsistent/i.test(t));
      expect(checked.status, `${JSON.stringify(checked.error)} ${failedChecks.join(' | ')}`).toBe('completed');
    }, 'db'), quietTimeout(300_000));

  // Paced VUs (PACED, helpers.ts) here and in the stop test: a backend is terminated by its database and
  // application name whether busy or idle, and a sleeping VU wakes at once on stop. (MariaDB's reconnect test
  // kills only sessions inside a CALL, so it stays flat out.)
  it('reconnects VUs whose backends are terminated mid-run and completes the run', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.25, tcRefreshSec: 5, userDelayMs: 0, ...PACED } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring'], 60_000);
    await new Promise((res) => setTimeout(res, 3000));
    const killed = Number(psql("select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = 'sledge_native_pg' and application_name like 'sledge-vu-%'"));
    expect(killed).toBe(2);
    const job = await waitJob(s, id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(job.result!.nopm).toBeGreaterThan(0);
    const out = (await output(s, id)).map((l) => l.text);
    for (const vu of [2, 3]) {
      expect(out).toContain(`Vuser ${vu}: connection lost, reconnecting`);
      expect(out.some((l) => new RegExp(`^Vuser ${vu}: reconnected after \\d+\\.\\d s$`).test(l))).toBe(true);
    }
    expect(out.some((l) => /Procedure Error \(connection( 57P01)?\)/.test(l))).toBe(true);
    // Transactions went on after the reconnect: both VUs finished successfully.
    expect(out.filter((l) => /^Vuser [23]:FINISHED SUCCESS$/.test(l))).toHaveLength(2);
  });

  it('stops within 2 s and leaves no VU session behind', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 5, tcRefreshSec: 5, userDelayMs: 0, ...PACED } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring'], 60_000);
    await new Promise((res) => setTimeout(res, 2000));
    const t0 = performance.now();
    const st = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/stop` });
    expect(st.statusCode).toBe(202);
    const job = await waitJob(s, id, 10_000);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(job.status).toBe('stopped');
    const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${id}/vus`);
    expect(vus.every((v) => v.state === 'finished' && v.commits > 0)).toBe(true);
    await new Promise((res) => setTimeout(res, 300));
    expect(psql("select count(*) from pg_stat_activity where datname = 'sledge_native_pg' and application_name like 'sledge-vu-%'")).toBe('0');
  });

  it('falls back to the TypeScript loop when the addon is missing, and vuLoop native then refuses to run', async () => {
    const missing = join(tmpdir(), 'no-such-dir', 'sledge_pgvu.node');
    const fb = await app({ pgVuAddonPath: missing });
    const strict = await app({ pgVuAddonPath: missing, vuLoop: 'native' });
    try {
      const job = await run(fb, { driver: 'test', vus: 1, totalIterations: 50 });
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const out = (await output(fb, job.id)).map((l) => l.text);
      expect(out.some((l) => l.startsWith('Virtual users run in JavaScript (the native PostgreSQL VU loop is not built') && l.includes(missing))).toBe(true);
      expect(out.filter((l) => TX_LINE.test(l))).toHaveLength(50);
      const failed = await run(strict, { driver: 'test', vus: 1, totalIterations: 50 });
      expect(failed.status).toBe('failed');
      expect(failed.error?.code).toBe('SLEDGE_E_DRIVER_UNAVAILABLE');
      expect(failed.error?.message).toMatch(/native VU loop is not available/);
    } finally {
      await fb.app.close();
      await strict.app.close();
    }
  });
});
