import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TimingRow, VuStatus } from '@sledge/protocol';
import { loadMyVuLoop } from '@sledge/worker-native';
import { buildApp, type AppOptions } from '../dist/app.js';
import { expectTpmOverNopm, get, post, waitJob, waitStatus, type SledgeApp } from './helpers.js';
import { copyMariadbTprocc } from './live-template.js';
import { quiet, quietTimeout } from '../../scripts/test-quiet.mjs';

/**
 * The native MariaDB C connector VU loop through the server, on the local
 * MariaDB: the same transactions as the mysql2 loop (test driver, same
 * seed), a timed run (NOPM, TPM/NOPM, rollbacks, counters, latency, per-VU
 * profiles, client CPU) with checkschema after, lock wait timeouts counted
 * as timeouts, reconnect after KILL, stop, the MySQL flavour, and the
 * fallback to mysql2 when the addon is missing.
 */
const DB = 'sledge_native_maria';
const target = { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: DB };

/** The connector's headers present => the build must have produced the loop; absent => these tests cannot run here. */
const mariadbConfig = spawnSync('mariadb_config', ['--include'], { encoding: 'utf8' });
const connectorHeaders = (mariadbConfig.status === 0 && mariadbConfig.stdout.split(/\s+/).some((t) => existsSync(join(t.replace(/^-I/, ''), 'mysql.h')))) || existsSync('/usr/include/mariadb/mysql.h');
const loop = loadMyVuLoop();

function sql(q: string): string {
  const r = spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-N', '-B', '-e', q], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mariadb: ${r.stderr}`);
  return r.stdout.trim();
}

/** Ids of the sessions running a CALL in the test database: the VUs' (the monitor runs no CALL). */
function vuSessionIds(): string[] {
  return sql(`select id from information_schema.processlist where db = '${DB}' and info like 'CALL %'`)
    .split('\n')
    .filter(Boolean);
}

async function app(o: Partial<AppOptions> = {}): Promise<SledgeApp> {
  return buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-native-maria-')), logger: false, uiDir: null, ...o });
}

async function output(s: SledgeApp, id: string): Promise<{ vu: number; text: string }[]> {
  return (await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${id}/output?limit=10000`)).lines;
}

async function run(s: SledgeApp, tprocc: Record<string, unknown>, seed?: number, t: Record<string, unknown> = target): Promise<Job> {
  const r = await post(s, '/api/v1/jobs', { type: 'run', target: t, tprocc, ...(seed !== undefined ? { seed } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return waitJob(s, String(r.body.id));
}

async function checkSchema(s: SledgeApp): Promise<void> {
  const c = await post(s, '/api/v1/jobs', { type: 'check', target });
  const checked = await waitJob(s, String(c.body.id));
  const failed = (await output(s, checked.id)).map((l) => l.text).filter((t) => /fail|error|inconsistent/i.test(t));
  expect(checked.status, `${JSON.stringify(checked.error)} ${failed.join(' | ')}`).toBe('completed');
}

const TX_LINE = /^(New Order|Payment|Delivery|Stock Level|Order Status): (.*): (commit|rollback) \(\d+\.\d{3} ms\)$/;
const NATIVE_LINE = 'Virtual users run in the native MariaDB C connector loop';

describe('native VU loop on MariaDB', () => {
  it('is built wherever the MariaDB C connector headers are installed', () => {
    if (connectorHeaders) expect(loop.available, loop.available ? '' : loop.reason).toBe(true);
    else expect(loop.available).toBe(false);
  });
});

describe.skipIf(!loop.available)('native VU loop on MariaDB (server)', () => {
  let s: SledgeApp;
  let tsApp: SledgeApp;

  beforeAll(async () => {
    s = await app();
    tsApp = await app({ vuLoop: 'typescript' });
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    await waitJob(s, String(del.body.id));
    await copyMariadbTprocc(DB);
  });
  afterAll(async () => {
    if (s) {
      const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
      if (del.status === 201) await waitJob(s, String(del.body.id));
      await s.app.close();
    }
    await tsApp?.app.close();
  });

  it('test driver: the same transactions as the mysql2 loop for the same seed (2 iterations each); flagged new orders roll back, the others commit', async () => {
    const tprocc = { driver: 'test', vus: 2, totalIterations: 200, iterations: 2, repeatDelayMs: 100, userDelayMs: 0 };
    const seed = 20261124;
    const nat = await run(s, tprocc, seed);
    expect(nat.status, JSON.stringify(nat.error)).toBe('completed');
    const ts = await run(tsApp, tprocc, seed);
    expect(ts.status, JSON.stringify(ts.error)).toBe('completed');
    const natOut = await output(s, nat.id);
    const tsOut = await output(tsApp, ts.id);
    expect(natOut.map((l) => l.text)).toContain(NATIVE_LINE);
    expect(tsOut.map((l) => l.text)).toContain('Virtual users run in JavaScript (vuLoop is typescript)');
    for (const vu of [2, 3]) {
      const lines = (out: typeof natOut) => out.filter((l) => l.vu === vu && TX_LINE.test(l.text)).map((l) => TX_LINE.exec(l.text)!);
      const n = lines(natOut);
      const t = lines(tsOut);
      expect(n).toHaveLength(400);
      expect(n.map((m) => `${m[1]}: ${m[2]}`)).toEqual(t.map((m) => `${m[1]}: ${m[2]}`));
      for (const m of [...n, ...t]) expect(m[3]).toBe(m[2]!.endsWith('(invalid item: rollback)') ? 'rollback' : 'commit');
    }
    expect(natOut.filter((l) => /\(invalid item: rollback\): rollback/.test(l.text)).length).toBeGreaterThan(0);
    const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${nat.id}/vus`);
    expect(vus.map((v) => [v.vu, v.state, v.commits + v.rollbacks, v.errors])).toEqual([
      [2, 'finished', 400, 0],
      [3, 'finished', 400, 0],
    ]);
  });

  it('timed run: NOPM > 0, TPM/NOPM in HammerDB range, ~1% new-order rollbacks, counters, latency, per-VU profiles, client CPU; schema consistent after', () =>
    quiet(async () => {
      const job = await run(s, { vus: 2, rampup: 0, duration: 0.5, tcRefreshSec: 5, userDelayMs: 0, timeProfile: true });
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const res = job.result!;
      expect(res.line).toBe(`TEST RESULT : System achieved ${res.nopm} NOPM from ${res.tpm} MariaDB TPM`);
      expect(res.nopm).toBeGreaterThan(0);
      expectTpmOverNopm(res, 1.5);
      expect(res.clientCpuMsPer1000Tx).toBeGreaterThan(0);
      const out = (await output(s, job.id)).map((l) => l.text);
      expect(out).toContain(NATIVE_LINE);
      expect(out.some((l) => /^Client CPU: [\d.]+ ms per 1000 transactions/.test(l))).toBe(true);
      expect(out.filter((l) => /^Vuser [23]:FINISHED SUCCESS$/.test(l))).toHaveLength(2);
      const rows = await get<TimingRow[]>(s, `/api/v1/jobs/${job.id}/timing`);
      const summary = rows.filter((r) => r.vu === 0);
      expect(summary.map((r) => r.proc).sort()).toEqual(['DELIVERY', 'NEWORD', 'OSTAT', 'PAYMENT', 'SLEV']);
      for (const r of summary) {
        expect(r.calls).toBeGreaterThan(0);
        expect(r.p50Ms).toBeGreaterThan(0);
        expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
      }
      // Per-VU time profiles (timeProfile: the native threads' measured-window records and spans).
      const perVu = rows.filter((r) => r.vu !== 0);
      expect(new Set(perVu.map((r) => r.vu))).toEqual(new Set([2, 3]));
      for (const r of perVu) expect(r.calls).toBeGreaterThan(0);
      const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${job.id}/vus`);
      expect(vus.every((v) => v.errors === 0 && v.commits > 0)).toBe(true);
      const rollbacks = vus.reduce((a, v) => a + v.rollbacks, 0);
      const neword = summary.find((r) => r.proc === 'NEWORD')!.calls;
      expect(rollbacks / neword).toBeGreaterThan(0.003);
      expect(rollbacks / neword).toBeLessThan(0.025);
      const lat = await get<{ perType: Record<string, { count: number }> }[]>(s, `/api/v1/jobs/${job.id}/latency`);
      expect(lat.length).toBeGreaterThan(5);
      // Every transaction's latency record reaches the live samples: the worker drains the native rings once a
      // second (POLL_MS) into interval histograms shipped to the main thread, and the last ones after the VUs end.
      const sampled = lat.reduce((a, x) => a + Object.values(x.perType).reduce((b, p) => b + p.count, 0), 0);
      expect(sampled).toBe(vus.reduce((a, v) => a + v.commits + v.rollbacks, 0));
      await checkSchema(s);
    }, 'db'), quietTimeout(300_000));

  it('counts lock wait timeouts as timeouts (1205) and carries on', () =>
    quiet(async () => {
      const before = sql('select @@global.innodb_lock_wait_timeout');
      sql('set global innodb_lock_wait_timeout = 1');
      // Another session holds warehouse 1 for 4 s: PAYMENT (which updates it) waits 1 s and fails.
      const holder = spawn('mariadb', ['-h', '127.0.0.1', '-u', 'root', DB, '-e', 'begin; select w_id from warehouse where w_id = 1 for update; do sleep(4); rollback;']);
      try {
        const job = await run(s, { vus: 2, rampup: 0, duration: 0.15, tcRefreshSec: 5, userDelayMs: 0 });
        expect(job.status, JSON.stringify(job.error)).toBe('completed');
        expect(job.result!.errors?.byClass['timeout']).toBeGreaterThan(0);
        const out = (await output(s, job.id)).map((l) => l.text);
        expect(out).toContain(NATIVE_LINE);
        expect(out.some((l) => /^Payment Procedure Error \(lock-timeout 1205\): Lock wait timeout exceeded/.test(l))).toBe(true);
        expect(out.filter((l) => /^Vuser [23]:FINISHED SUCCESS$/.test(l))).toHaveLength(2);
        expect(job.result!.nopm).toBeGreaterThan(0);
      } finally {
        sql(`set global innodb_lock_wait_timeout = ${Number(before)}`);
        holder.kill();
      }
    }, 'db'), quietTimeout(300_000));

  it('reconnects VUs whose sessions are killed mid-run and completes the run', () =>
    quiet(async () => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 0.25, tcRefreshSec: 5, userDelayMs: 0 } });
      const id = String(r.body.id);
      await waitStatus(s, id, ['measuring'], 60_000);
      await new Promise((res) => setTimeout(res, 3000));
      // A VU between CALLs is not in the list: collect both over a few rounds.
      const killed = new Set<string>();
      for (let i = 0; i < 200 && killed.size < 2; i++) {
        for (const sid of vuSessionIds()) {
          if (killed.has(sid)) continue;
          spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-e', `kill ${sid}`]);
          killed.add(sid);
        }
      }
      expect(killed.size).toBe(2);
      const job = await waitJob(s, id);
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      expect(job.result!.nopm).toBeGreaterThan(0);
      expect(job.result!.errors?.byClass['connection']).toBeGreaterThan(0);
      const out = (await output(s, id)).map((l) => l.text);
      expect(out.some((l) => /^Vuser [23]: connection lost, reconnecting$/.test(l))).toBe(true);
      expect(out.some((l) => /^Vuser [23]: reconnected after \d+\.\d s$/.test(l))).toBe(true);
      expect(out.some((l) => /Procedure Error \(connection (1927|2013|2006)\)/.test(l))).toBe(true);
      expect(out.filter((l) => /^Vuser [23]:FINISHED SUCCESS$/.test(l))).toHaveLength(2);
    }), quietTimeout(300_000));

  it('stops within a second and leaves no VU session behind', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0, duration: 5, tcRefreshSec: 5, userDelayMs: 0 } });
    const id = String(r.body.id);
    await waitStatus(s, id, ['measuring'], 60_000);
    await new Promise((res) => setTimeout(res, 2000));
    const t0 = performance.now();
    const st = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/stop` });
    expect(st.statusCode).toBe(202);
    const job = await waitJob(s, id, 10_000);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(1000);
    expect(job.status).toBe('stopped');
    const vus = await get<VuStatus[]>(s, `/api/v1/jobs/${id}/vus`);
    expect(vus.every((v) => v.state === 'finished' && v.commits > 0)).toBe(true);
    await new Promise((res) => setTimeout(res, 300));
    expect(sql(`select count(*) from information_schema.processlist where db = '${DB}' and command <> 'Sleep'`)).toBe('0');
  });

  it('runs the MySQL flavour (engine mysql on the MariaDB server) in the native loop too', async () => {
    const job = await run(s, { vus: 2, rampup: 0, duration: 0.05, tcRefreshSec: 5 }, undefined, { ...target, engine: 'mysql' });
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect(job.result!.line).toMatch(/^TEST RESULT : System achieved \d+ NOPM from \d+ MySQL TPM$/);
    expect(job.result!.nopm).toBeGreaterThan(0);
    expect((await output(s, job.id)).map((l) => l.text)).toContain(NATIVE_LINE);
  });

  it('falls back to mysql2 when the addon is missing or the target asks for what it does not do; vuLoop native then refuses to run', async () => {
    const missing = join(tmpdir(), 'no-such-dir', 'sledge_myvu.node');
    const fb = await app({ pgVuAddonPath: missing });
    const strict = await app({ pgVuAddonPath: missing, vuLoop: 'native' });
    try {
      const job = await run(fb, { driver: 'test', vus: 1, totalIterations: 50 });
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const out = (await output(fb, job.id)).map((l) => l.text);
      expect(out.some((l) => l.startsWith('Virtual users run in JavaScript (the native MariaDB/MySQL VU loop is not built') && l.includes(missing))).toBe(true);
      expect(out.filter((l) => TX_LINE.test(l))).toHaveLength(50);
      const prepared = await run(s, { driver: 'test', vus: 1, totalIterations: 20 }, undefined, { ...target, prepared: true });
      expect(prepared.status, JSON.stringify(prepared.error)).toBe('completed');
      expect((await output(s, prepared.id)).map((l) => l.text)).toContain('Virtual users run in JavaScript (target.prepared is on (the native loop sends text-protocol CALLs))');
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
