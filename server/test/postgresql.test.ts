import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TproccResult } from '@sledge/protocol';
import { PACED, expectTpmOverNopm, get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { quiet, quietTimeout } from '../../scripts/test-quiet.mjs';

/**
 * PostgreSQL through the REST API: build with 2 build VUs, check, a timed
 * run whose TPM/NOPM ratio is in HammerDB's range, check again, delete.
 */
describe('PostgreSQL end to end', () => {
  let s: SledgeApp;
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_srv_pg', password: 'tpcc-pw-srv', database: 'sledge_srv_pg', superuser: 'postgres', superuserPassword: 'postgres' };

  beforeAll(async () => {
    // The TypeScript row generator keeps the build client-bound, so the COPY sessions
    // reliably wait for their client (ClientRead) while ASH samples once a second.
    s = await makeApp({ generator: 'typescript' });
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    await waitJob(s, String(del.body.id));
  });
  afterAll(async () => {
    const del = await post(s, '/api/v1/jobs', { type: 'delete', target });
    if (del.status === 201) await waitJob(s, String(del.body.id));
    await s.app.close();
  });

  // 4 warehouses: the load phase lasts several of ASH's 1 s samples even with the native generator on a quiet machine.
  it('builds 4 warehouses with 2 build VUs and passes checkschema', async () => {
    const r = await post(s, '/api/v1/jobs', { type: 'build', target, tprocc: { warehouses: 4, buildVus: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=5000`);
    // PostgreSQL builds in table lanes (buildPlan 'lanes'): both workers cover all 4 warehouses, each starting on its own tables.
    expect(out.lines.some((l) => l.vu === 2 && l.text === 'Loading 4 Warehouses start:1 end:4 (WAREHOUSE, STOCK, DISTRICT first)')).toBe(true);
    expect(out.lines.some((l) => l.vu === 3 && l.text === 'Loading 4 Warehouses start:1 end:4 (CUSTOMER, HISTORY, ORDERS, NEW_ORDER, ORDER_LINE first)')).toBe(true);
    expect(out.lines.some((l) => l.vu === 2 && l.text === 'Loading Stock Wid=4')).toBe(true);
    expect(out.lines.some((l) => l.text === 'Loading Orders for D=10 W=4')).toBe(true);
    const c = await post(s, '/api/v1/jobs', { type: 'check', target });
    expect((await waitJob(s, String(c.body.id))).status).toBe('completed');
    // ASH during the build: the COPY sessions are busy in the server. Fed by libpq from ready buffers they
    // no longer wait for the client (ClientRead, seen when node-postgres fed them).
    const ash = await get<{ topEvents: { event: string; waitClass: string; pct: number }[]; status: { ok: boolean; source?: string }[]; phases: { label: string }[] }>(s, `/api/v1/jobs/${job.id}/ash`);
    expect(ash.status.find((x) => (x as { sampler?: string }).sampler === 'ash')).toMatchObject({ ok: true, source: 'pg_stat_activity' });
    expect(ash.topEvents.some((e) => e.waitClass === 'CPU')).toBe(true);
    const topSql = (await get<{ topSql: { sql: string }[] }>(s, `/api/v1/jobs/${job.id}/ash`)).topSql;
    expect(topSql.some((q) => /^COPY /i.test(q.sql))).toBe(true);
    expect(ash.phases.map((p) => p.label)).toEqual(expect.arrayContaining(['build: load', 'build: indexes']));
  });

  it('runs 2 VUs timed: NOPM > 0, TPM/NOPM in range, engine TPM source; schema still consistent', () =>
    quiet(async () => {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 2, rampup: 0.1, duration: 0.5, tcRefreshSec: 5 } });
      const job: Job = await waitJob(s, String(r.body.id));
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      const res = job.result!;
      expect(res.line).toBe(`TEST RESULT : System achieved ${res.nopm} NOPM from ${res.tpm} PostgreSQL TPM`);
      expect(res.nopm).toBeGreaterThan(0);
      expect(res.tpmSource).toBe('engine');
      // TPM counts every commit+rollback cluster-wide; NOPM only new orders (~43% of the mix).
      expectTpmOverNopm(res, 1.8);
      expect(job.engineVersion).toMatch(/^\d+\.\d+/);
      expect(JSON.stringify(job)).not.toContain('tpcc-pw-srv');
      const c = await post(s, '/api/v1/jobs', { type: 'check', target });
      expect((await waitJob(s, String(c.body.id))).status).toBe('completed');
      // ASH during the run: CPU plus waits, the transaction calls as top SQL, sessions mapped to VUs.
      type Ash = { series: { ts: number; aas: Record<string, number> }[]; topSql: { sql: string; pct: number }[]; topSessions: { vu?: number }[]; topEvents: { waitClass: string }[] };
      const ash = await get<Ash>(s, `/api/v1/jobs/${job.id}/ash`);
      expect(ash.topEvents.some((e) => e.waitClass === 'CPU')).toBe(true);
      expect(new Set(ash.topEvents.map((e) => e.waitClass)).size).toBeGreaterThan(1);
      expect(ash.topSql.some((q) => /neword|payment/i.test(q.sql))).toBe(true);
      expect(ash.topSessions.some((x) => x.vu === 2 || x.vu === 3)).toBe(true);
      // A brushed range recomputes the tops over that range only.
      const mid = ash.series[Math.floor(ash.series.length / 2)]!.ts;
      const part = await get<Ash>(s, `/api/v1/jobs/${job.id}/ash?from=${mid}&to=${mid + 5000}`);
      expect(part.series.every((b) => b.ts >= mid && b.ts < mid + 5000)).toBe(true);
      const exp = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/export?format=json` });
      expect(exp.body).not.toContain('tpcc-pw-srv');
    }, 'db'), quietTimeout(300_000));

  // Issue 34's foreign-load check, live: pgbench's tpcb-like on a database of its own, on the same server, for the whole
  // run. (A SELECT-only load would not do: PostgreSQL 15 publishes a busy session's commits to pg_stat_database only with
  // its table statistics, so back-to-back SELECT 1 transactions stay uncounted until the session idles or ends.)
  // db scope: the check reads the cluster-wide commit counter, which another suite's dropped
  // database lowers (it did, once the slow packages and the browser suite ran side by side).
  // Both loads are throttled, not flat out: pgbench at 50 transactions a second (-R 50, ~3,000 TPM,
  // and its sessions idle between transactions, so their commits reach pg_stat_database promptly)
  // and a paced VU (PACED, ~10-13 transactions a second, ~600-800 TPM): engine TPM ~5x the client's,
  // where the check warns above 1.3x and 60 TPM more.
  it('a second workload on the same server during the run is flagged as foreign load', () => quiet(async () => {
    const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
    const pgbench = versions.map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`).filter((f) => existsSync(f)).pop();
    if (!pgbench) throw new Error('pgbench is not in /usr/lib/postgresql/<version>/bin: install the PostgreSQL server package');
    const db = 'sledge_srv_pg_foreign';
    const psql = (sql: string) => spawnSync('psql', ['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-c', sql], { encoding: 'utf8' });
    const conn = ['-h', '127.0.0.1', '-U', 'postgres'];
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    expect(psql(`CREATE DATABASE ${db}`).status).toBe(0);
    const init = spawnSync(pgbench, ['-i', '-s', '1', '-q', ...conn, db], { encoding: 'utf8' });
    expect(init.status, init.stderr).toBe(0);
    const other = spawn(pgbench, ['-n', ...conn, '-c', '4', '-R', '50', '-T', '300', db], { stdio: ['ignore', 'ignore', 'pipe'] });
    let otherErr = '';
    other.stderr!.on('data', (d: Buffer) => (otherErr += d.toString()));
    const otherExit = new Promise<void>((ok) => other.once('exit', () => ok()));
    try {
      const r = await post(s, '/api/v1/jobs', { type: 'run', target, tprocc: { vus: 1, rampup: 0, duration: 0.15, tcRefreshSec: 2, ...PACED } });
      const job: Job = await waitJob(s, String(r.body.id));
      expect(job.status, JSON.stringify(job.error)).toBe('completed');
      expect(other.exitCode, `pgbench ended before the run did: ${otherErr}`).toBeNull();
      const check = (job.result as TproccResult).validity?.checks.find((c) => c.id === 'foreign-load');
      expect(check?.status, JSON.stringify(check)).toBe('warn');
      expect(check?.detail).toMatch(/another workload was on the server/);
      console.log(`[foreign load] ${check?.detail}`);
    } finally {
      other.kill('SIGINT');
      await otherExit;
      psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    }
  }, 'db'), quietTimeout(300_000));
});
