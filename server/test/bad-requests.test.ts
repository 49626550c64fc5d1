import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * Requests a fuzzer found answered badly: each gets a typed 4xx naming what
 * to fix, and nothing in the server log but the request lines.
 */
let s: SledgeApp;
const log: Record<string, unknown>[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // Fastify's logger takes a destination stream; AppOptions passes the setting through.
  s = await makeApp({ logger: { level: 'info', stream } as never });
});
afterAll(async () => {
  await s.app.close();
});

const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string) => {
  const r = await s.app.inject({ method, url, ...(payload !== undefined ? { payload, headers: { 'content-type': 'application/json' } } : {}) });
  return { status: r.statusCode, body: r.body, json: (r.body ? JSON.parse(r.body) : {}) as { error?: { code: string; message: string; field?: string } } };
};
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('JSON depth limit', () => {
  it.each(['/api/v1/configs', '/api/v1/jobs', '/api/v1/targets/test'])('POST %s with 5000 nested objects is 413 SLEDGE_E_TOO_LARGE saying the limit', async (url) => {
    const r = await send('POST', url, `{"name":"x","target":${nested(5000)}}`);
    expect(r.status).toBe(413);
    expect(r.json.error).toEqual({ code: 'SLEDGE_E_TOO_LARGE', field: 'body', message: expect.stringContaining('more than 64 levels deep') });
    expect(r.body).not.toContain('call stack');
  });

  it('counts arrays too, and brackets inside strings not at all', async () => {
    expect((await send('PUT', '/api/v1/configs/1', `{"name":"x","target":${'['.repeat(65)}${']'.repeat(65)}}`)).status).toBe(413);
    const inString = await send('POST', '/api/v1/configs', JSON.stringify({ name: '{'.repeat(80) + '['.repeat(80), target: { engine: 'sqlite' } }));
    expect(inString.status).toBe(400); // the name is too long for a config, but the body parsed
    expect(inString.json.error?.field).toBe('name');
  });

  it('lets 64 levels through to the route', async () => {
    const r = await send('POST', '/api/v1/configs', `{"name":"x","target":{"engine":"sqlite","file":${'['.repeat(62)}${']'.repeat(62)}}}`);
    expect(r.status).toBe(400);
    expect(r.json.error?.field).toBe('target.file');
  });
});

describe('body size limit', () => {
  it('a 2 MiB body is 413 SLEDGE_E_TOO_LARGE naming the limit', async () => {
    const r = await send('POST', '/api/v1/jobs', JSON.stringify({ type: 'run', label: 'x'.repeat(2 * 1024 * 1024) }));
    expect(r.status).toBe(413);
    expect(r.json.error).toEqual({ code: 'SLEDGE_E_TOO_LARGE', field: 'body', message: "the request body is larger than the server's limit of 1048576 bytes (1 MiB)" });
  });
});

describe('a NUL in a target field', () => {
  it('a PostgreSQL user name with a NUL is a 400 on target.user before any connection (was 502)', async () => {
    const r = await send('POST', '/api/v1/targets/test', JSON.stringify({ target: { engine: 'postgresql', host: '127.0.0.1', user: 'tp\u0000cc' } }));
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.user' });
  });
});

describe('job ids in export file names', () => {
  it.each(['', '?format=csv&series=output'])('GET /api/v1/jobs/a%%00b/export%s is a clean 404 and logs no header error', async (q) => {
    const before = log.length;
    const r = await send('GET', `/api/v1/jobs/a%00b/export${q}`);
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: 'SLEDGE_E_NOT_FOUND', field: 'id' });
    const logged = log.slice(before);
    expect(logged.filter((l) => Number(l['level']) >= 40)).toEqual([]);
    expect(JSON.stringify(logged)).not.toContain('Invalid character in header');
  });
});

describe('URLs the router cannot take', () => {
  it.each([
    ['/api/v1/jobs/%ED%A0%80', 'not valid'],
    ['/api/v1/configs/%C0%AF', 'not valid'],
    [`/api/v1/jobs/${'a'.repeat(150)}/output`, 'longer than 100 characters'],
  ])('GET %s is a 400 SLEDGE_E_VALIDATION on the url, in the one error shape, without echoing it', async (url, says) => {
    const r = await send('GET', url);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'url', message: expect.stringContaining(says) });
    expect(r.body).not.toContain('FST_ERR');
    expect(r.body).not.toContain(url.slice(14, 30));
  });
});
