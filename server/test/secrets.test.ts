import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { Job } from '@sledge/protocol';
import { buildApp, type SledgeApp } from '../dist/app.js';
import { waitJob } from './helpers.js';

/**
 * The secret scan: a PostgreSQL role with a distinctive password is saved in
 * a configuration, built (1 warehouse), run (2 VUs), used for a datagen job,
 * shared, watched over the WebSocket and finally deleted; then every surface
 * the server has is searched for the password (and the superuser's):
 * every REST GET route of the OpenAPI document for every job and
 * configuration, JSON and CSV exports, outputs, the share link, the HammerDB
 * API and jobs viewer, WebSocket frames, /metrics, the server log, the job
 * store's files on disk (raw bytes) and the datagen directory.
 * User names, hosts and database names are not secrets: they stay readable.
 */
const SECRET = `Sz-S3cr3t-${randomBytes(9).toString('hex')}`;
/** The superuser is trusted on loopback, so any password works: a second distinctive one. */
const SU_SECRET = `Sz-Su-S3cr3t-${randomBytes(9).toString('hex')}`;
const NAME = 'sledge_sz_scan';
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: NAME, password: SECRET, database: NAME, superuser: 'postgres', superuserPassword: SU_SECRET };
const masked = { ...target, password: '********', superuserPassword: '********' };

let s: SledgeApp;
let dataDir: string;
const logLines: string[] = [];
const frames: string[] = [];
/** Every answer read from the server, by where it came from. */
const surfaces = new Map<string, string>();
const jobs: Job[] = [];
let configId = 0;
let shareToken = '';
const datagenDir = () => join(dataDir, 'sz-datagen');

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const r = await s.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  surfaces.set(`${method} ${url}`, r.body);
  return { status: r.statusCode, body: r.body, json: () => JSON.parse(r.body) as Record<string, unknown> };
}

/** Submit a job with the saved configuration's secrets, follow it on the socket, wait for its end. */
async function job(ws: WebSocket, body: Record<string, unknown>): Promise<Job> {
  const r = await call('POST', '/api/v1/jobs', { ...body, configId, target: masked });
  expect(r.status, r.body).toBe(201);
  const id = String(r.json()['id']);
  ws.send(JSON.stringify({ t: 'subscribe', jobId: id, since: 0 }));
  const j = await waitJob(s, id, 280_000);
  jobs.push(j);
  return j;
}

const hits = (text: string | Buffer) => {
  const b = typeof text === 'string' ? Buffer.from(text) : text;
  return [SECRET, SU_SECRET].filter((x) => b.includes(x) || b.includes(Buffer.from(x, 'utf16le')));
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sledge-sz-secrets-'));
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  // Fastify's logger takes a destination stream; AppOptions passes the setting through. Debug: everything the server says.
  s = await buildApp({ dataDir, logger: { level: 'debug', stream } as never });

  // A clean start: no database or role left by an earlier run.
  const clean = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', payload: { type: 'delete', target } });
  expect(clean.statusCode, clean.body).toBe(201);
  await waitJob(s, String((JSON.parse(clean.body) as { id: string }).id));

  const ws = await s.app.injectWS('/api/v1/ws');
  ws.on('message', (m: Buffer) => frames.push(m.toString('utf8')));
  ws.send(JSON.stringify({ t: 'jobs', on: true }));

  const saved = await call('POST', '/api/v1/configs', { name: 'secret scan', target });
  expect(saved.status, saved.body).toBe(201);
  configId = Number(saved.json()['id']);

  const build = await job(ws, { type: 'build', tprocc: { warehouses: 1 } });
  expect(build.status, JSON.stringify(build.error)).toBe('completed');
  const run = await job(ws, { type: 'run', tprocc: { vus: 2, rampup: 0, duration: 0.1, tcRefreshSec: 1 } });
  expect(run.status, JSON.stringify(run.error)).toBe('completed');
  const check = await job(ws, { type: 'check' });
  expect(check.status, JSON.stringify(check.error)).toBe('completed');
  const datagen = await job(ws, { type: 'datagen', tprocc: { warehouses: 1 }, datagen: { dir: datagenDir(), workers: 1 } });
  expect(datagen.status, JSON.stringify(datagen.error)).toBe('completed');

  const share = await call('POST', `/api/v1/jobs/${run.id}/share`, {});
  shareToken = String(share.json()['token']);

  // Refusals that might echo what they were given: a wrong password (the secret plus one character), and the secret with a NUL.
  await call('POST', '/api/v1/targets/test', { target: { ...target, password: `${SECRET}x` } });
  await call('POST', '/api/v1/targets/test', { target: { ...target, password: `${SECRET}\u0000` } });
  await call('POST', '/api/v1/targets/test', { target: masked, configId });
  await call('POST', '/api/v1/targets/ash', { target: masked, configId });
  // The HammerDB API given the same role and passwords: its replies, print pages and a checkschema job.
  await call('POST', '/dbset', { db: 'pg' });
  // The host first: a password set before it would be bound to the old one (hammerdb-secret-binding.test.ts).
  await call('POST', '/diset', { dict: 'connection', key: 'pg_host', value: '127.0.0.1' });
  for (const [key, value] of [['pg_user', NAME], ['pg_dbase', NAME], ['pg_pass', SECRET], ['pg_superuserpass', SU_SECRET]] as const) {
    expect((await call('POST', '/diset', { dict: 'tpcc', key, value })).body).toContain('success');
  }
  const hdbCheck = await call('POST', '/checkschema');
  const hdbJob = /JOBID=(\w+)/.exec(hdbCheck.body)?.[1];
  expect(hdbJob, hdbCheck.body).toBeDefined();
  ws.send(JSON.stringify({ t: 'subscribe', jobId: hdbJob, since: 0 }));
  jobs.push(await waitJob(s, hdbJob!));

  const del = await job(ws, { type: 'delete' });
  expect(del.status, JSON.stringify(del.error)).toBe('completed');
  await new Promise((r) => setTimeout(r, 500)); // the last frames
  ws.terminate();

  // Read every GET route of the OpenAPI document for every job, configuration and the share link.
  const doc = JSON.parse((await s.app.inject({ method: 'GET', url: '/docs/json' })).body) as { paths: Record<string, Record<string, unknown>> };
  for (const [path, ops] of Object.entries(doc.paths)) {
    // REST and /metrics only: at the root, GET starts HammerDB work (/buildschema, /vurun, ...).
    if (!('get' in ops) || !(path.startsWith('/api/') || path === '/metrics')) continue;
    const ids = path.includes('/configs/{id}') ? [String(configId)] : path.includes('/profiles/{id}') ? ['1'] : path.includes('{token}') ? [shareToken] : path.includes('{') ? jobs.map((j) => j.id) : [''];
    for (const id of ids) await call('GET', path.replace(/\{\w+\}/, id));
  }
  for (const j of jobs) {
    for (const series of ['tcount', 'client', 'timing', 'latency', 'output', 'vus']) await call('GET', `/api/v1/jobs/${j.id}/export?format=csv&series=${series}`);
    await call('GET', `/api/v1/jobs/${j.id}/output?limit=10000`);
    for (const q of ['', '&status', '&result', '&timing', '&tcount', '&db', '&bm', '&dict', '&timestamp', '&system', '&summaryjson', '&resultdata', '&timingdata', '&tcountdata', '&metricsdata', '&index', '&dict&raw=1', '&system&raw=1']) await call('GET', `/jobs?jobid=${j.id}${q}`);
    for (const form of ['', 'dict', 'result', 'system']) await call('POST', `/jobscmd?${j.id}-${form}`, JSON.stringify({ args: form ? [j.id, form] : [j.id] }));
  }
  await call('GET', '/api/v1/jobs?limit=1000');
  await call('GET', `/s/${shareToken}`);
  for (const p of ['dict', 'script', 'db', 'vuconf', 'datagen']) await call('GET', `/print?${p}`);
  s.store.flush();
}, 600_000);

let closed = false;
afterAll(async () => {
  if (!closed) await s?.app.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('secret scan', () => {
  it('did the work: a build, a run with NOPM, a check, a datagen, a HammerDB checkschema and a delete, all with the password', () => {
    expect(jobs.map((j) => `${j.type} ${j.status}`)).toEqual(['build completed', 'run completed', 'check completed', 'datagen completed', 'check completed', 'delete completed']);
    expect(jobs[1]!.result?.nopm).toBeGreaterThan(0);
    expect(frames.length).toBeGreaterThan(50);
    expect(surfaces.size).toBeGreaterThan(200);
  });

  it('user, host and database stay readable in the job record', async () => {
    const detail = JSON.parse(surfaces.get(`GET /api/v1/jobs/${jobs[0]!.id}`)!) as Job;
    expect(detail.config).toMatchObject({ target: { user: NAME, host: '127.0.0.1', database: NAME, superuser: 'postgres', password: '********' } });
    const cfg = JSON.parse(surfaces.get(`GET /api/v1/configs/${configId}`)!) as { target: Record<string, unknown> };
    expect(cfg.target).toMatchObject({ user: NAME, database: NAME, password: '********' });
  });

  it('no API answer carries a password: REST routes, exports, outputs, share link, configs, HammerDB API', () => {
    const found = [...surfaces].filter(([, body]) => hits(body).length).map(([where, body]) => `${where}: ${body.slice(Math.max(0, body.indexOf('Sz-') - 80), body.indexOf('Sz-') + 60)}`);
    expect(found).toEqual([]);
  });

  it('no WebSocket frame carries a password', () => {
    expect(frames.filter((f) => hits(f).length)).toEqual([]);
  });

  it('/metrics carries no password', () => {
    const metrics = surfaces.get('GET /metrics') ?? '';
    expect(metrics).toContain('sledge_');
    expect(hits(metrics)).toEqual([]);
  });

  it('the server log carries no password', () => {
    const log = logLines.join('');
    expect(log).toContain('queued: build on postgresql');
    expect(log.split('\n').filter((l) => hits(l).length)).toEqual([]);
  });

  it('the datagen directory (CSV files, load scripts, manifest) carries no password', () => {
    const names = readdirSync(datagenDir());
    expect(names.some((n) => n.startsWith('load_'))).toBe(true);
    expect(names.filter((n) => hits(readFileSync(join(datagenDir(), n))).length)).toEqual([]);
  });

  // Fails until saved-configuration secrets are encrypted at rest: the saved
  // configuration holds the password in sledge.db (and its WAL) in clear text.
  it('the job store files on disk (sledge.db, -wal, -shm: raw bytes) carry no password, open and after close', async () => {
    const scan = (when: string) =>
      ['sledge.db', 'sledge.db-wal', 'sledge.db-shm']
        .map((n) => join(dataDir, n))
        .filter((f) => existsSync(f) && statSync(f).size > 0)
        .map((f) => ({ f, bytes: statSync(f).size, found: hits(readFileSync(f)) }))
        .map((x) => ({ ...x, where: `${when} ${x.f} (${x.bytes} bytes)` }));
    const open = scan('open:');
    expect(open.length).toBeGreaterThan(0);
    await s.app.close(); // checkpoints the WAL into sledge.db
    closed = true;
    const after = scan('closed:');
    const all = [...open, ...after];
    console.log(
      `secret scan: ${surfaces.size} answers, ${frames.length} WebSocket frames, ${logLines.join('').length} bytes of log, ` +
        `${readdirSync(datagenDir()).length} datagen files, store files ${all.map((x) => x.where).join(', ')}; ` +
        `found: ${all.filter((x) => x.found.length).length ? all.filter((x) => x.found.length).map((x) => x.where).join(', ') : 'none'}`,
    );
    expect(all.filter((x) => x.found.length).map((x) => `${x.where}: ${x.found.join(', ')}`)).toEqual([]);
  });
});
