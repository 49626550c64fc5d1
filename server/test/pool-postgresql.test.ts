import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, TproccResult } from '@sledge/protocol';
import { get, makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { copyPgTprocc } from './live-template.js';

/**
 * Connect pool over three PostgreSQL databases (hammerdb.md §6.8, seed 003):
 * three 1-warehouse TPROC-C schemas built by Sledge (copies of the run's
 * prebuilt template, live-template.ts), each in its own database
 * with its own user (as HammerDB's article sets up tpcc1..3), one run whose
 * VUs open all three and send all five transactions round_robin. The monitor
 * measures NOPM/TPM on the job's target (the first database); the result
 * gives client-side TPM per transaction and per pool connection.
 */
describe('PostgreSQL connect pool', () => {
  let s: SledgeApp;
  const names = ['pool_a', 'pool_b', 'pool_c'];
  const tgt = (n: string) => ({ engine: 'postgresql', host: '127.0.0.1', port: 5432, user: n, password: `pw-secret-${n}`, database: n, superuser: 'postgres', superuserPassword: 'postgres' });
  const del = async (n: string) => {
    const r = await post(s, '/api/v1/jobs', { type: 'delete', target: tgt(n) });
    if (r.status === 201) await waitJob(s, String(r.body.id));
  };

  beforeAll(async () => {
    s = await makeApp();
    for (const n of names) await del(n);
  }, 120_000);
  afterAll(async () => {
    for (const n of names) await del(n);
    await s.app.close();
  }, 120_000);

  it('three 1-warehouse schemas, round_robin over them: sessions and client TPM on every database', async () => {
    for (const n of names) await copyPgTprocc({ database: n, user: n, password: tgt(n).password });
    const ops = Object.fromEntries(['neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus'].map((o) => [o, { connections: names, policy: 'round_robin' }]));
    const pool = { connections: names.map((n) => ({ name: n, user: n, password: `pw-secret-${n}`, database: n })), ops };
    const vus = 2;
    const r = await post(s, '/api/v1/jobs', { type: 'run', target: { ...tgt('pool_a'), pool }, tprocc: { vus, rampup: 0.05, duration: 0.25, userDelayMs: 100 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job: Job = await waitJob(s, String(r.body.id));
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as TproccResult;
    expect(res.nopm).toBeGreaterThan(0);
    // The monitor counts new orders on the first database only (HammerDB's main connection): about a third of the pool's.
    expect(res.nopm).toBeLessThan(res.clientTpm!['neworder']! * 0.6);
    expect(res.targets!.map((t) => t.name)).toEqual(names);
    for (const t of res.targets!) {
      // Every VU opened every connection (HammerDB's connect pool), and every database ran every transaction.
      expect(t.sessions).toBe(vus);
      expect(t.transactions).toBeGreaterThan(0);
      for (const op of Object.keys(ops)) expect(t.clientTpm[op], `${t.name} ${op}`).toBeGreaterThan(0);
    }
    // round_robin: each VU's n-th call of a transaction goes to database n mod 3, so the databases' counts
    // differ by at most one per VU and transaction: vus / (rampup + duration) per minute, + 1 for the rounding.
    const minutes = 0.05 + 0.25;
    for (const op of Object.keys(ops)) {
      const per = res.targets!.map((t) => t.clientTpm[op]!);
      expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(Math.ceil(vus / minutes) + 1);
      const sum = per.reduce((a, b) => a + b, 0);
      // The same counts read twice (per VU, per connection) a moment apart, each rounded down: a few transactions' worth.
      expect(Math.abs(sum - res.clientTpm![op]!)).toBeLessThanOrEqual(3 + Math.ceil((2 * vus) / minutes));
      console.log(`${op}: ${per.join(' / ')} per minute on ${names.join(' / ')}; all ${res.clientTpm![op]}`);
    }
    const out = await get<{ lines: { vu: number; text: string }[] }>(s, `/api/v1/jobs/${job.id}/output?limit=5000`);
    const text = out.lines.map((l) => l.text);
    expect(text.find((l) => l.startsWith('CLIENT SIDE TPM : '))).toMatch(/^CLIENT SIDE TPM : neworder \d+ payment \d+ delivery \d+ stocklevel \d+ orderstatus \d+$/);
    expect(text.some((l) => /^CLIENT SIDE TPM pool_b \(2 sessions, \d+ transactions\) : neworder \d+/.test(l))).toBe(true);
    expect(text).toContain('Virtual users run in JavaScript (a connect pool (target.pool) runs in the TypeScript loop)');
    // Pool passwords are secrets: not in the job, its output or its export.
    const exp = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/export?format=json` });
    for (const body of [JSON.stringify(job), JSON.stringify(out), exp.body]) expect(body).not.toMatch(/pw-secret/);
    expect((job.config as { target: { pool: { connections: { password: string }[] } } }).target.pool.connections[1]!.password).toBe('********');
    // The HammerDB command API: pg_connect_pool true runs through the stored pgcpool.xml (seed 003's shape, our databases).
    const xml = `<connpool><connections>${names.map((n, i) => `<c${i + 1}><pg_host>127.0.0.1</pg_host><pg_port>5432</pg_port><pg_sslmode>prefer</pg_sslmode><pg_user>${n}</pg_user><pg_pass>pw-secret-${n}</pg_pass><pg_dbase>${n}</pg_dbase></c${i + 1}>`).join('')}</connections><sprocs>${Object.keys(ops).map((o) => `<${o}><connections>c1 c2 c3</connections><policy>round_robin</policy></${o}>`).join('')}</sprocs></connpool>`;
    expect((await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/pg', payload: { xml } })).statusCode).toBe(200);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const hdb = async (url: string, body: string) => JSON.parse((await s.app.inject({ method: 'POST', url, payload: body, headers: form })).body) as { success?: { message: string }; error?: { message: string } };
    await hdb('/dbset', ' "db": "pg" ');
    for (const [k, v] of [['pg_host', '127.0.0.1'], ['pg_user', 'pool_a'], ['pg_pass', 'pw-secret-pool_a'], ['pg_dbase', 'pool_a'], ['pg_rampup', '0'], ['pg_duration', '0.1'], ['pg_connect_pool', 'true']]) {
      const dict = k === 'pg_host' ? 'connection' : 'tpcc';
      expect((await hdb('/diset', ` "dict": "${dict}", "key": "${k}", "value": "${v}" `)).error).toBeUndefined();
    }
    await hdb('/vuset', ' "vu": "1" ');
    await hdb('/loadscript', '');
    const ran = await hdb('/vurun', '');
    const hid = /JOBID=([0-9A-F]{24})$/.exec(ran.success?.message ?? '')?.[1];
    expect(hid, JSON.stringify(ran)).toBeDefined();
    const hjob = await waitJob(s, hid!);
    expect(hjob.status, JSON.stringify(hjob.error)).toBe('completed');
    const hres = hjob.result as TproccResult;
    expect(hres.targets!.map((t) => [t.name, t.sessions])).toEqual([['c1', 1], ['c2', 1], ['c3', 1]]);
    for (const t of hres.targets!) expect(t.transactions).toBeGreaterThan(0);
    expect(JSON.stringify(hjob)).not.toMatch(/pw-secret/);
    console.log(`command API: ${hres.line}; ${hres.targets!.map((t) => `${t.name} ${t.transactions} tx`).join(', ')}`);
    // The schemas are still consistent after the pooled run.
    for (const n of names) {
      const c = await post(s, '/api/v1/jobs', { type: 'check', target: tgt(n) });
      expect((await waitJob(s, String(c.body.id))).status).toBe('completed');
    }
  }, 600_000);
});
