import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp, type SledgeApp } from '../dist/app.js';
import { startLocalAgent } from '../dist/plugins/local-agent.js';
import { redactUrl } from '../dist/plugins/log-redact.js';
import { isLoopbackHost } from '../dist/plugins/origin.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/**
 * The API token (issue 15, items 1, 7 and 8; scope 3): guarded by route so an
 * encoded path cannot slip past, on every surface (REST, WebSockets,
 * /metrics, the HammerDB API and jobs viewer, the OpenAPI document, the agent
 * socket); share links read their one job; tokens stay out of the request
 * log; a server on a non-loopback address without a token refuses to start.
 */

const TOKEN = 'tok-7f3a9c1e55';
const auth = { authorization: `Bearer ${TOKEN}` };

function uiDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'sledge-ui-'));
  writeFileSync(join(d, 'index.html'), '<!doctype html><title>Sledge dashboard</title>');
  return d;
}

/** A finished job straight in the store (no database needed). */
function storedJob(s: SledgeApp, label: string): string {
  const job = s.store.createJob({
    type: 'run',
    workload: 'tprocc',
    engine: 'sqlite',
    config: { target: { engine: 'sqlite', file: `${label}.sqlite` }, tprocc: { warehouses: 1, vus: 1 } },
    seed: 1,
    profileId: 0,
    clientVersion: 'test',
    label,
  });
  s.store.updateJob(job.id, { status: 'completed' });
  return job.id;
}

/** Open a WebSocket: 'open' (then closed) or the HTTP status that refused the handshake. */
function wsStatus(url: string, headers: Record<string, string> = {}): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5000 });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.on('error', (e) => reject(e));
  });
}

describe('API token, guarded by route', () => {
  let s: SledgeApp;
  let dataDir: string;
  let a: string;
  let b: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-test-'));
    s = await buildApp({ dataDir, logger: false, uiDir: uiDir(), token: TOKEN });
    a = storedJob(s, 'job-a');
    b = storedJob(s, 'job-b');
  });
  afterAll(async () => {
    await s.app.close();
  });

  const guarded = (): [string, string, unknown?][] => [
    ['GET', '/api/v1/jobs'],
    ['GET', '/%61pi/v1/jobs'],
    ['GET', '/api/%761/jobs'],
    ['GET', '/api/v1/%6aobs'],
    ['HEAD', '/%61pi/v1/jobs'],
    ['GET', `/%61pi/v1/jobs/${a}`],
    ['GET', `/api/v1/jobs/${a}/export?format=json`],
    ['POST', '/%61pi/v1/jobs', { type: 'check', target: { engine: 'sqlite', file: 'x.sqlite' } }],
    ['POST', '/api/v1/targets/test', { target: { engine: 'sqlite', file: 'x.sqlite' } }],
    ['POST', '/%61pi/v1/targets/test', { target: { engine: 'sqlite', file: 'x.sqlite' } }],
    ['GET', '/api/v1/configs'],
    ['GET', '/api/v1/agents'],
    ['DELETE', `/%61pi/v1/jobs/${b}`],
    ['GET', '/metrics'],
    ['HEAD', '/metrics'],
    ['GET', '/%6detrics'],
    ['GET', '/docs/json'],
    ['GET', '/docs/yaml'],
    ['GET', '/print?dict'],
    ['GET', '/%64ict'],
    ['POST', '/dbset', '{"db":"pg"}'],
    ['POST', '/vurun', ''],
    ['GET', `/jobs?jobid=${a}&status`],
    ['GET', '/jobs'],
  ];

  it('refuses every non-public route without the token, however the path is spelled', async () => {
    for (const [method, url, body] of guarded()) {
      for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }]) {
        const r = await s.app.inject({
          method: method as 'GET',
          url,
          headers: { accept: 'application/json', ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
        });
        expect(r.statusCode, `${method} ${url} ${JSON.stringify(headers)}: ${r.body}`).toBe(401);
        expect(r.body).not.toContain(a);
      }
    }
    expect(s.store.getJob(b)).toBeDefined();
  });

  it('answers the same routes with the Bearer token', async () => {
    const jobs = await s.app.inject({ method: 'GET', url: '/%61pi/v1/jobs', headers: auth });
    expect(jobs.statusCode).toBe(200);
    expect(jobs.body).toContain(a);
    for (const url of ['/metrics', '/docs/json', '/print?dict', `/jobs?jobid=${a}&status`, '/api/v1/agents', `/api/v1/jobs/${a}/export?format=json`]) {
      const r = await s.app.inject({ method: 'GET', url, headers: { ...auth, accept: 'application/json' } });
      expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
    }
  });

  it('takes ?token= only on WebSockets, downloads and the HammerDB API', async () => {
    for (const url of [`/api/v1/jobs?token=${TOKEN}`, `/api/v1/jobs/${a}?token=${TOKEN}`, `/api/v1/configs?token=${TOKEN}`, `/metrics?token=${TOKEN}`, `/docs/json?token=${TOKEN}`]) {
      expect((await s.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const download = await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${a}/export?format=json&token=${TOKEN}` });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.body).toContain(a);
    expect((await s.app.inject({ method: 'GET', url: `/print?dict&token=${TOKEN}` })).statusCode).toBe(200);
  });

  it('leaves public only what holds no data: health, the dashboard files, the docs page shell', async () => {
    expect((await s.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    for (const url of ['/', '/index.html', `/jobs/${a}`, '/compare']) {
      const r = await s.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).toContain('Sledge dashboard');
    }
    // A browser opening /jobs gets the dashboard, not HammerDB's jobs viewer.
    const page = await s.app.inject({ method: 'GET', url: '/jobs', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.body).toContain('Sledge dashboard');
    expect((await s.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBe(200);
    // The docs page fetches its document with the dashboard's token.
    const init = await s.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain("getItem('sledge.token')");
    expect(init.body).toContain('Authorization');
  });

  it('health without the token is liveness only: no job id; with the token it lists the active and queued jobs', async () => {
    // A job that is surely still active or queued when health is asked: a 3 s run on a copied schema (no build needed).
    sqliteFromTemplate({ dataDir }, 'health-run.sqlite');
    const created = await s.app.inject({ method: 'POST', url: '/api/v1/jobs', headers: auth, payload: { type: 'run', target: { engine: 'sqlite', file: 'health-run.sqlite' }, tprocc: { vus: 1, rampup: 0, duration: 0.05 } } });
    expect(created.statusCode, created.body).toBe(201);
    const id = (JSON.parse(created.body) as { id: string }).id;
    const anonymous = await s.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(anonymous.statusCode).toBe(200);
    expect(JSON.parse(anonymous.body)).toEqual({ ok: true });
    expect(anonymous.body).not.toContain(id);
    // A wrong token is no token.
    expect(JSON.parse((await s.app.inject({ method: 'GET', url: '/api/v1/health', headers: { authorization: 'Bearer wrong-token' } })).body)).toEqual({ ok: true });
    const full = JSON.parse((await s.app.inject({ method: 'GET', url: '/api/v1/health', headers: auth })).body) as { ok: boolean; active: string | null; queued: string[] };
    expect(full.ok).toBe(true);
    expect([full.active, ...full.queued]).toContain(id);
    for (let i = 0; i < 600 && s.store.getJob(id)?.status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(s.store.getJob(id)?.status).toBe('completed');
  }, 90_000);

  it('lets a share link read its one job and nothing else', async () => {
    const created = await s.app.inject({ method: 'POST', url: `/api/v1/jobs/${a}/share`, headers: auth });
    expect(created.statusCode, created.body).toBe(201);
    const share = (JSON.parse(created.body) as { token: string }).token;
    const shared = await s.app.inject({ method: 'GET', url: `/api/v1/shared/${share}` });
    expect(shared.statusCode).toBe(200);
    expect(shared.body).toContain(a);
    expect(shared.body).not.toContain(b);
    // The share token is no API token.
    for (const url of ['/api/v1/jobs', `/api/v1/jobs/${a}`, `/api/v1/jobs/${b}`, '/metrics', '/print?dict']) {
      expect((await s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${share}` } })).statusCode, url).toBe(401);
    }
    expect((await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${b}/export?format=json&token=${share}` })).statusCode).toBe(401);
    // Path tricks around the share route reach no other job.
    for (const url of [`/api/v1/shared/${share}/../jobs`, `/api/v1/shared/${share}%2F..%2F..%2Fjobs`, `/api/v1/shared/${share}/x`, `/api/v1/shared/..%2Fjobs%2F${b}`]) {
      const r = await s.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(r.body, url).not.toContain(b);
      if (r.statusCode === 200) expect(r.body, url).toContain('Sledge dashboard'); // the client-side router's fallback
      else expect([400, 404], url).toContain(r.statusCode);
    }
  });

  describe('WebSockets on a real socket', () => {
    let base: string;
    let agent: ChildProcess | null = null;
    beforeAll(async () => {
      base = (await s.app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws');
    });
    afterAll(() => {
      agent?.kill('SIGTERM');
    });

    it('refuses the dashboard socket and the agent socket without the token, however the path is spelled', async () => {
      for (const path of ['/api/v1/ws', '/%61pi/v1/ws', '/api/%761/ws', '/api/v1/agent', '/%61pi/v1/agent', '/api/v1/%61gent']) {
        expect(await wsStatus(`${base}${path}`), path).toBe(401);
        expect(await wsStatus(`${base}${path}?token=wrong`), path).toBe(401);
      }
    });

    it('opens them with ?token= or the Bearer header', async () => {
      expect(await wsStatus(`${base}/%61pi/v1/ws?token=${TOKEN}`)).toBe('open');
      expect(await wsStatus(`${base}/api/v1/ws`, auth)).toBe('open');
      expect(await wsStatus(`${base}/api/v1/agent`, auth)).toBe('open');
    });

    it('still connects the in-process CPU agent, which is passed the token', async () => {
      agent = startLocalAgent(base.replace(/^ws/, 'http'), TOKEN, () => undefined);
      expect(agent, 'apps/agent is built').not.toBeNull();
      const end = Date.now() + 20_000;
      while (s.engine.agents.list().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(s.engine.agents.list().length).toBe(1);
    });
  });
});

describe('request logs', () => {
  it('never carry the token: ?token= values, share tokens and Authorization are redacted', async () => {
    const secret = 'tok-LOGSECRET-4242';
    let log = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        log += String(chunk);
        done();
      },
    });
    // Requests are logged at debug (one line per answer).
    const s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-test-')), logger: { level: 'debug', stream }, uiDir: null, token: secret });
    try {
      const id = storedJob(s, 'logged');
      const share = s.store.createShare(id).token;
      for (const url of [
        `/api/v1/jobs/${id}/export?format=json&token=${secret}`,
        `/print?dict&%74oken=${secret}`,
        `/api/v1/ws?token=${secret}`,
        `/api/v1/jobs?token=${secret}`,
        `/api/v1/shared/${share}`,
        // ";token=" (a matrix parameter, a query some clients split on ";"), plain or percent-encoded (issue 30).
        `/api/v1/ws;token=${secret}`,
        `/jobs?jobid=${id};token=${secret}`,
        `/api/v1/ws%3Btoken%3D${secret}`,
        `/print?dict=x%26token%3D${secret}`,
      ]) {
        await s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${secret}` } });
      }
    } finally {
      await s.app.close();
    }
    expect(log).toContain('request completed');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(secret);
    expect(log).not.toContain('LOGSECRET');
    expect(log).toContain('/api/v1/shared/[redacted]');
    expect(log).toContain('format=json');
  });

  it('redactUrl keeps everything but the secret values', () => {
    expect(redactUrl('/api/v1/jobs/X/export?format=csv&token=abc&series=timing')).toBe('/api/v1/jobs/X/export?format=csv&token=[redacted]&series=timing');
    expect(redactUrl('/print?dict&%74oken=abc')).toBe('/print?dict&%74oken=[redacted]');
    expect(redactUrl('/x?Password=p&pass=q&user=u')).toBe('/x?Password=[redacted]&pass=[redacted]&user=u');
    expect(redactUrl('/s/abcdef0123')).toBe('/s/[redacted]');
    expect(redactUrl('/api/v1/jobs')).toBe('/api/v1/jobs');
    expect(redactUrl('/ws;token=abc')).toBe('/ws;token=[redacted]');
    expect(redactUrl('/jobs?jobid=1;token=abc&x=2')).toBe('/jobs?jobid=1;token=[redacted]&x=2');
    expect(redactUrl('/ws%3Btoken%3Dabc')).toBe('/ws;token=[redacted]');
  });
});

describe('pnpm start on a non-loopback address', () => {
  const main = new URL('../dist/main.js', import.meta.url).pathname;
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });

  /** Run main.js until it exits or prints `until`; then stop it. */
  function run(env: Record<string, string>, args: string[] = [], until = /Sledge listening/): Promise<{ code: number | null; out: string }> {
    const base = { ...process.env };
    delete base['SLEDGE_TOKEN'];
    delete base['SLEDGE_INSECURE'];
    const child = spawn(process.execPath, [main, ...args], {
      env: { ...base, PORT: '0', SLEDGE_AGENT: 'off', SLEDGE_DATA_DIR: mkdtempSync(join(tmpdir(), 'sledge-main-')), ...env },
      stdio: 'pipe',
    });
    children.push(child);
    let out = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`main.js neither exited nor started in 30 s: ${out}`));
      }, 30_000);
      const seen = (d: Buffer) => {
        out += String(d);
        if (until.test(out)) child.kill('SIGTERM');
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
  }

  it('refuses to start without SLEDGE_TOKEN, saying why', async () => {
    const r = await run({ HOST: '0.0.0.0' });
    expect(r.code).toBe(2);
    expect(r.out).toContain('refusing to start: HOST=0.0.0.0');
    expect(r.out).toContain('SLEDGE_TOKEN');
    expect(r.out).toContain('--insecure');
    expect(r.out).not.toContain('Sledge listening');
  });

  it('starts with --insecure or SLEDGE_INSECURE=1, logging a warning', async () => {
    // The two servers start side by side (each start is mostly loading the app).
    const cases = [[{ HOST: '0.0.0.0' }, ['--insecure']], [{ HOST: '0.0.0.0', SLEDGE_INSECURE: '1' }, []]] as const;
    for (const r of await Promise.all(cases.map(([env, args]) => run(env, [...args])))) {
      expect(r.out).toContain('Sledge listening on http://0.0.0.0');
      expect(r.out).toMatch(/"level":40.*--insecure: listening on 0\.0\.0\.0 without SLEDGE_TOKEN/);
    }
  });

  it('starts quietly with a token, or on loopback', async () => {
    for (const r of await Promise.all([{ HOST: '0.0.0.0', SLEDGE_TOKEN: 'tok-main-1234' }, { HOST: '127.0.0.1' }].map((env) => run(env)))) {
      expect(r.out).toContain('Sledge listening');
      expect(r.out).not.toContain('--insecure');
    }
  });

  it('rejects an unknown flag', async () => {
    const r = await run({ HOST: '127.0.0.1' }, ['--insecur']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('unknown argument --insecur');
  });

  it('knows which listen addresses are loopback', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.5', 'bench.lan', '10.0.0.1']) expect(isLoopbackHost(h), h).toBe(false);
  });
});
