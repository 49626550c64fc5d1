import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { SledgeClient } from '../src/client.js';

/**
 * `sledge --local` asks its in-process server over node:http (src/loopback.ts), a server elsewhere
 * with fetch. The server must not be able to tell them apart: the same method, path, headers
 * (but accept-encoding) and body, and the client must read the same answers and errors.
 */
describe('the --local client (node:http) against fetch', () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url?.startsWith('/api/v1/missing')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'SLEDGE_E_NOT_FOUND', message: 'no such job' } }));
        } else if (req.url === '/api/v1/bom') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('\ufeffa,b\nü,€\n');
        } else if (req.url === '/print?dict') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":{"message":"ok"}}');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body || null }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** What the server saw and what the client got for the same calls, by transport. */
  async function calls(loopback: boolean) {
    seen.length = 0;
    const c = new SledgeClient(base, 'tok', { loopback });
    const got = {
      get: await c.request('GET', '/jobs?limit=1'),
      post: await c.request('POST', '/jobs', { type: 'run', note: 'ü' }),
      postEmpty: await c.request('POST', '/jobs/x/stop'),
      del: await c.request('DELETE', '/jobs/x'),
      text: await c.text('/bom'),
      hammerdb: await c.hammerdb('GET', '/print?dict'),
      error: await c.request('GET', '/missing').catch((e: unknown) => (SledgeError.is(e) ? `${e.code}: ${e.message}` : String(e))),
    };
    const sent = seen.map(({ headers, ...rest }) => {
      const h: Record<string, unknown> = { ...headers };
      delete h['accept-encoding']; // fetch offers gzip; the loopback client offers none (it would not undo it)
      delete h['connection'];
      delete h['host']; // the same name and port, checked below
      expect(headers.host).toBe(new URL(base).host);
      return { ...rest, headers: h };
    });
    return { got, sent };
  }

  it('sends what fetch sends and reads what fetch reads', async () => {
    const viaFetch = await calls(false);
    const viaHttp = await calls(true);
    expect(viaHttp.sent).toEqual(viaFetch.sent);
    expect(viaHttp.got).toEqual(viaFetch.got);
    // The figures themselves, so that both being wrong the same way shows too.
    expect(viaHttp.got.text).toBe('a,b\nü,€\n');
    expect(viaHttp.got.post).toEqual({ echo: JSON.stringify({ type: 'run', note: 'ü' }) });
    expect(viaHttp.got.error).toBe('SLEDGE_E_NOT_FOUND: no such job');
    expect(viaHttp.sent[2]!.headers['content-length']).toBe('0');
    expect(viaHttp.sent[0]!.headers['authorization']).toBe('Bearer tok');
  });

  it('names an unreachable server the same way (SLEDGE_E_CONNECT with the socket error code)', async () => {
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const message = async (loopback: boolean) => {
      const e = await new SledgeClient(`http://127.0.0.1:${port}`, undefined, { loopback }).request('GET', '/jobs').catch((x: unknown) => x);
      return SledgeError.is(e) ? `${e.code}: ${e.message}` : String(e);
    };
    const viaFetch = await message(false);
    expect(viaFetch).toContain('ECONNREFUSED');
    expect(await message(true)).toBe(viaFetch);
  });
});
