import { mkdtempSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp, type SledgeApp } from '../dist/app.js';
import { hostAllowed } from '../dist/plugins/origin.js';

/**
 * Cross-site requests and DNS rebinding (issue 15, item 3), on a server
 * without a token (the default on loopback): a web page on another origin
 * cannot change anything through /api/v1 or the HammerDB API, cannot open
 * the dashboard socket, and a rebound host name is refused everywhere.
 * Tools that send no Origin (curl, HammerDB's Tcl client) are unaffected.
 */

const EVIL = 'http://evil.example';
const cross = { origin: EVIL };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

function storedJob(s: SledgeApp): string {
  const job = s.store.createJob({
    type: 'run',
    workload: 'tprocc',
    engine: 'sqlite',
    config: { target: { engine: 'sqlite', file: 'x.sqlite' }, tprocc: { warehouses: 1, vus: 1 } },
    seed: 1,
    profileId: 0,
    clientVersion: 'test',
  });
  s.store.updateJob(job.id, { status: 'completed' });
  return job.id;
}

const envelope = (body: string) => JSON.parse(body) as { success?: { message: string }; error?: { message: string } };

describe('HammerDB API from another site', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sledge-test-'));
    s = await buildApp({ dataDir, logger: false, uiDir: null });
    // The session points at a scratch SQLite file, so that on a server without
    // these guards a request that gets through touches no shared database.
    const set = async (url: string, body: string) => (await s.app.inject({ method: 'POST', url, payload: body, headers: form })).body;
    expect(await set('/dbset', '{"db":"sqlite"}')).toContain('Database set to SQLite');
    expect(await set('/diset', JSON.stringify({ dict: 'connection', key: 'sqlite_file', value: join(dataDir, 'scratch.sqlite') }))).toContain('Changed connection:sqlite_file');
  });
  afterAll(async () => {
    await s.app.close();
  });
  const db = async () => (JSON.parse((await s.app.inject({ method: 'GET', url: '/db' })).body) as { current: string }).current;
  const jobCount = () => s.store.listJobs({ limit: 1 }).total;

  it('refuses settings posted by a foreign page (text/plain, a form, or JSON) and keeps the session', async () => {
    for (const headers of [
      { ...cross, 'content-type': 'text/plain' },
      { ...cross, ...form },
      { ...cross, 'content-type': 'application/json' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000', 'content-type': 'text/plain' },
      { origin: 'null', 'content-type': 'text/plain' },
    ]) {
      for (const [url, body] of [
        ['/dbset', '{"db":"db2"}'],
        ['/diset', '{"dict":"connection","key":"sqlite_file","value":"attacker.sqlite"}'],
        ['/vuset', '{"vu":"7"}'],
      ] as const) {
        const r = await s.app.inject({ method: 'POST', url, payload: body, headers });
        expect(r.statusCode, `${url} ${JSON.stringify(headers)}: ${r.body}`).toBe(403);
        expect(envelope(r.body).error?.message).toMatch(/from another site/);
      }
    }
    expect(await db()).toBe('SQLite');
    expect(JSON.stringify(JSON.parse((await s.app.inject({ method: 'GET', url: '/dict' })).body))).not.toContain('attacker');
    expect(JSON.parse((await s.app.inject({ method: 'GET', url: '/vuconf' })).body)).toMatchObject({ 'Virtual Users': '1' });
  });

  it('refuses the work verbs posted by a foreign page: no job is created', async () => {
    const before = jobCount();
    for (const verb of ['buildschema', 'deleteschema', 'vucreate', 'vurun', 'datagenrun', 'checkschema', 'loadscript', 'clearscript', 'tcstart', 'vudestroy']) {
      const r = await s.app.inject({ method: 'POST', url: `/${verb}`, payload: '', headers: { ...cross, ...form } });
      expect(r.statusCode, `${verb}: ${r.body}`).toBe(403);
    }
    expect(jobCount()).toBe(before);
  });

  it('makes every verb with a body POST-only: a plain GET (a link, an <img>) changes nothing', async () => {
    const before = jobCount();
    for (const verb of ['dbset', 'diset', 'vuset', 'tcset', 'dgset', 'customscript', 'savescript', 'steprun']) {
      const r = await s.app.inject({ method: 'GET', url: `/${verb}` });
      expect(r.statusCode, `GET /${verb}: ${r.body}`).toBe(405);
      expect(r.headers['allow']).toBe('POST');
      expect(envelope(r.body).error?.message).toBe(`${verb} changes state: send it with POST`);
    }
    expect(jobCount()).toBe(before);
    // Read-only verbs still answer GET.
    for (const url of ['/tcstatus', '/librarycheck', '/print?dict', '/vustatus', '/help']) expect((await s.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });

  it('refuses a GET of the bodiless verbs (HammerDB 4.3-4.7 send them as GET) from a browser page of another site: no job, no state change', async () => {
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', accept: 'image/avif,*/*' };
    const before = jobCount();
    const vus = JSON.parse((await s.app.inject({ method: 'GET', url: '/vustatus' })).body) as unknown;
    for (const verb of ['buildschema', 'deleteschema', 'checkschema', 'vucreate', 'vurun', 'vudestroy', 'datagenrun', 'loadscript', 'clearscript', 'tcstart', 'tcstop', 'metstart', 'metstop', 'waittocomplete']) {
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, cross, { 'sec-fetch-site': 'same-site' }, browser]) {
        const r = await s.app.inject({ method: 'GET', url: `/${verb}`, headers });
        expect(r.statusCode, `GET /${verb} ${JSON.stringify(headers)}: ${r.body}`).toBe(403);
        expect(envelope(r.body).error?.message).toMatch(/^refused: /);
      }
    }
    expect(jobCount()).toBe(before);
    expect(JSON.parse((await s.app.inject({ method: 'GET', url: '/vustatus' })).body)).toEqual(vus);
    expect(JSON.parse((await s.app.inject({ method: 'GET', url: '/tcstatus' })).body)).toEqual({ success: { message: 'Transaction Counter is not running' } });
  });

  it("accepts HammerDB's own client: no Origin, a form content type, a brace-less body", async () => {
    const r = await s.app.inject({ method: 'POST', url: '/vuset', payload: ' "vu": "2" ', headers: form });
    expect(envelope(r.body)).toEqual({ success: { message: 'Virtual users set to 2' } });
    // ... and a page served by this very server (same origin).
    const same = await s.app.inject({ method: 'POST', url: '/vuset', payload: '{"vu":"1"}', headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain' } });
    expect(envelope(same.body)).toEqual({ success: { message: 'Virtual users set to 1' } });
  });

  it('refuses a cross-site jobs?jobid=ID&delete (HammerDB deletes with a GET), allows it from a tool', async () => {
    const id = storedJob(s);
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, cross]) {
      const r = await s.app.inject({ method: 'GET', url: `/jobs?jobid=${id}&delete`, headers });
      expect(r.statusCode, r.body).toBe(403);
      expect(s.store.getJob(id)).toBeDefined();
    }
    // Reading from a link on another site is fine: it changes nothing.
    expect((await s.app.inject({ method: 'GET', url: `/jobs?jobid=${id}&status`, headers: { 'sec-fetch-site': 'cross-site' } })).statusCode).toBe(200);
    const r = await s.app.inject({ method: 'GET', url: `/jobs?jobid=${id}&delete` });
    expect(envelope(r.body)).toEqual({ success: { message: `Deleted Jobid ${id}` } });
    expect(s.store.getJob(id)).toBeUndefined();
  });

  it('refuses jobs?jobid=ID&delete from a browser that sends no Sec-Fetch-Site or Origin (plain http:// on a LAN), honours it with evidence', async () => {
    // What an <img> or a link on any page makes a browser send to http://192.168.x.y: its User-Agent, no Sec-Fetch-*, no Origin.
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', accept: 'image/avif,image/webp,*/*' };
    const id = storedJob(s);
    const r = await s.app.inject({ method: 'GET', url: `/jobs?jobid=${id}&delete`, headers: browser });
    expect(r.statusCode, r.body).toBe(403);
    expect(envelope(r.body).error?.message).toMatch(/changes state.*DELETE \/api\/v1\/jobs\/ID/);
    expect(s.store.getJob(id)).toBeDefined();
    // v6's &DELETE is the same verb.
    expect((await s.app.inject({ method: 'GET', url: `/jobs?jobid=${id}&DELETE`, headers: browser })).statusCode).toBe(403);
    expect(s.store.getJob(id)).toBeDefined();
    // Evidence that no other site sent it: HammerDB's Tcl client, the address bar (Sec-Fetch-Site none), this server's own page, a bearer header.
    for (const headers of [
      { 'user-agent': 'Tcl http client package 2.9.5' },
      { ...browser, 'sec-fetch-site': 'none' },
      { ...browser, 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
      { ...browser, authorization: 'Bearer any' },
    ]) {
      const job = storedJob(s);
      const ok = await s.app.inject({ method: 'GET', url: `/jobs?jobid=${job}&delete`, headers });
      expect(envelope(ok.body), JSON.stringify(headers)).toEqual({ success: { message: `Deleted Jobid ${job}` } });
      expect(s.store.getJob(job)).toBeUndefined();
    }
  });
});

describe('/api/v1 from another site', () => {
  let s: SledgeApp;
  let id: string;
  beforeAll(async () => {
    s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-test-')), logger: false, uiDir: null });
    id = storedJob(s);
  });
  afterAll(async () => {
    await s.app.close();
  });
  const configs = async () => (JSON.parse((await s.app.inject({ method: 'GET', url: '/api/v1/configs' })).body) as unknown[]).length;

  it('refuses state-changing requests with a foreign Origin or Sec-Fetch-Site', async () => {
    const json = { 'content-type': 'application/json' };
    const cfg = JSON.stringify({ name: 'x', config: { target: { engine: 'sqlite', file: 'x.sqlite' } } });
    for (const from of [cross, { 'sec-fetch-site': 'cross-site' }, { origin: 'http://localhost:5173' }]) {
      for (const [method, url, payload] of [
        ['POST', `/api/v1/jobs/${id}/share`, undefined],
        ['POST', `/api/v1/jobs/${id}/stop`, undefined],
        ['POST', '/api/v1/configs', cfg],
        ['DELETE', `/api/v1/jobs/${id}`, undefined],
        ['POST', '/%61pi/v1/configs', cfg],
      ] as const) {
        const headers = payload ? { ...from, ...json } : from;
        const r = await s.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        expect(r.statusCode, `${method} ${url} ${JSON.stringify(headers)}: ${r.body}`).toBe(403);
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'SLEDGE_E_FORBIDDEN', field: 'origin' } });
      }
    }
    expect(s.store.getJob(id)).toBeDefined();
    expect(await configs()).toBe(0);
  });

  it('refuses the content types a page can send without a preflight (text/plain, forms)', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      for (const [method, url] of [
        ['POST', `/api/v1/jobs/${id}/share`],
        ['POST', '/api/v1/configs'],
        ['DELETE', `/api/v1/jobs/${id}`],
      ] as const) {
        const r = await s.app.inject({ method, url, headers: { 'content-type': type }, payload: '{"name":"x","config":{}}' });
        expect(r.statusCode, `${method} ${url} ${type}: ${r.body}`).toBe(415);
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'content-type' } });
      }
    }
    expect(s.store.getJob(id)).toBeDefined();
    expect(await configs()).toBe(0);
  });

  it('serves the dashboard (same origin) and tools (no Origin) as before', async () => {
    const same = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/share`, headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' } });
    expect(same.statusCode, same.body).toBe(201);
    const tool = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/share` });
    expect(tool.statusCode, tool.body).toBe(201);
    const json = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/share`, headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{}' });
    expect(json.statusCode, json.body).toBe(201);
    // Reads from another site stay possible (a browser cannot read the answer without CORS).
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: cross })).statusCode).toBe(200);
  });
});

describe('Host header (DNS rebinding)', () => {
  it('answers only to IP literals, localhost, this machine and the allowed names', async () => {
    const s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-test-')), logger: false, uiDir: null, allowedHosts: ['bench.lan'] });
    try {
      for (const host of ['evil.example', 'evil.example:8080', 'localhost.evil.example', '127.0.0.1.nip.io:8080']) {
        for (const url of ['/api/v1/jobs', '/api/v1/health', '/metrics', '/print?dict']) {
          const r = await s.app.inject({ method: 'GET', url, headers: { host } });
          expect(r.statusCode, `${host} ${url}: ${r.body}`).toBe(403);
          expect(r.body).toMatch(/DNS rebinding guard.*SLEDGE_ALLOWED_HOSTS/);
        }
      }
      for (const host of ['localhost:8080', '127.0.0.1:1', '[::1]:8080', '10.1.2.3', 'bench.lan:8080', 'BENCH.LAN', 'app.localhost', os.hostname()]) {
        const r = await s.app.inject({ method: 'GET', url: '/api/v1/health', headers: { host } });
        expect(r.statusCode, host).toBe(200);
      }
    } finally {
      await s.app.close();
    }
  });

  it('hostAllowed: "*" allows every name', () => {
    expect(hostAllowed('evil.example', [])).toBe(false);
    expect(hostAllowed('evil.example', ['*'])).toBe(true);
    expect(hostAllowed(undefined, [])).toBe(true);
  });
});

describe('the dashboard WebSocket from another site', () => {
  let s: SledgeApp;
  let base: string;
  beforeAll(async () => {
    s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-test-')), logger: false, uiDir: null });
    base = (await s.app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws');
  });
  afterAll(async () => {
    await s.app.close();
  });

  function handshake(path: string, opts: WebSocket.ClientOptions): Promise<number | 'open'> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${base}${path}`, { handshakeTimeout: 5000, ...opts });
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.on('error', reject);
    });
  }

  it('refuses a handshake from a foreign page or a rebound host name, opens it from this origin and from tools', async () => {
    const port = new URL(base).port;
    for (const path of ['/api/v1/ws', '/api/v1/agent']) {
      expect(await handshake(path, { origin: EVIL }), path).toBe(403);
      expect(await handshake(path, { headers: { host: `evil.example:${port}` } }), path).toBe(403);
      expect(await handshake(path, { origin: `http://127.0.0.1:${port}` }), path).toBe('open');
      expect(await handshake(path, {}), path).toBe('open');
    }
  });
});
