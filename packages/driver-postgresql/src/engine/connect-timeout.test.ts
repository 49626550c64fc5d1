// The connect timeout, measured on the clock: a solo-tier file (vitest.config.ts), so it
// runs with nothing else on the machine (docs/testing.md, "Tiers"). It was a quiet
// section of connect.test.ts, whose drain (every running test of the slow stage
// finishing first) cost more than the 5 s it measures.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresqlTarget } from '@sledge/protocol';
import { CONNECT_TIMEOUT_MS } from './config.js';
import { connectError } from '../testing/connect-error.js';

describe('connect timeout', () => {
  let silent: Server;
  let silentPort = 0;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts TCP connections and never answers: a server that hangs during login.
    silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('gives up after the 5 s connect timeout on a server that does not answer', async () => {
    const target: PostgresqlTarget = {
      engine: 'postgresql',
      host: '127.0.0.1',
      port: silentPort,
      user: 'postgres',
      password: 'unused',
      database: 'postgres',
      superuser: 'postgres',
      superuserPassword: 'postgres',
      defaultDatabase: 'postgres',
      sslmode: 'disable',
      vacuum: false, prepared: true, noStoredProcs: false,
    };
    const t0 = Date.now();
    const e = await connectError(target);
    const took = Date.now() - t0;
    expect(e.code).toBe('SLEDGE_E_CONNECT');
    expect(e.field).toBe('target.host');
    expect(e.message).toMatch(/connect timeout/);
    expect(took).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(CONNECT_TIMEOUT_MS + 3000);
  }, 15_000);
});
