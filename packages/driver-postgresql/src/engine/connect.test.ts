import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SledgeError} from '@sledge/protocol';
import type { PostgresqlTarget } from '@sledge/protocol';
import { APP_MONITOR, CONNECT_TIMEOUT_MS } from './config.js';
import { closeQuietly, connect } from './connect.js';
import { quiet, quietTimeout } from '../../../../scripts/test-quiet.mjs';

const base: PostgresqlTarget = {
  engine: 'postgresql',
  host: process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1',
  port: Number(process.env['SLEDGE_PG_PORT'] ?? 5432),
  user: 'postgres',
  password: 'unused',
  database: 'postgres',
  superuser: 'postgres',
  superuserPassword: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  defaultDatabase: 'postgres',
  sslmode: 'prefer',
  vacuum: false, prepared: true, noStoredProcs: false,
};

async function connectError(t: PostgresqlTarget): Promise<SledgeError> {
  try {
    await closeQuietly(await connect(t, 'superuser', APP_MONITOR));
  } catch (e) {
    expect(SledgeError.is(e)).toBe(true);
    return e as SledgeError;
  }
  throw new Error('connect succeeded');
}

describe('connect', () => {
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

  it('gives up after the 5 s connect timeout on a server that does not answer', () =>
    quiet(async () => {
      const t0 = Date.now();
      const e = await connectError({ ...base, host: '127.0.0.1', port: silentPort, sslmode: 'disable' });
      const took = Date.now() - t0;
      expect(e.code).toBe('SLEDGE_E_CONNECT');
      expect(e.field).toBe('target.host');
      expect(e.message).toMatch(/connect timeout/);
      expect(took).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
      expect(took).toBeLessThan(CONNECT_TIMEOUT_MS + 3000);
    }), quietTimeout(15_000));

  it('falls back to a plain connection with sslmode=prefer when the server has no TLS, and names the session', async () => {
    const c = await connect(base, 'superuser', APP_MONITOR);
    try {
      const r = await c.query<{ ssl: boolean; app: string }>(
        `SELECT coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false) AS ssl, current_setting('application_name') AS app`,
      );
      const serverSsl = (await c.query<{ ssl: string }>(`SELECT current_setting('ssl') AS ssl`)).rows[0]!.ssl;
      expect(r.rows[0]!.app).toBe('sledge-monitor');
      expect(r.rows[0]!.ssl).toBe(serverSsl === 'on');
    } finally {
      await closeQuietly(c);
    }
  });

  it('sslmode=require: encrypted on a TLS server, else a target.sslmode error', async () => {
    const serverSsl = await (async () => {
      const c = await connect(base, 'superuser', APP_MONITOR);
      try {
        return (await c.query<{ ssl: string }>(`SELECT current_setting('ssl') AS ssl`)).rows[0]!.ssl;
      } finally {
        await closeQuietly(c);
      }
    })();
    if (serverSsl === 'on') {
      // This server has TLS: require must connect encrypted.
      const c = await connect({ ...base, sslmode: 'require' }, 'superuser', APP_MONITOR);
      try {
        expect((await c.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0]!.ssl).toBe(true);
      } finally {
        await closeQuietly(c);
      }
      return;
    }
    const e = await connectError({ ...base, sslmode: 'require' });
    expect(e.code).toBe('SLEDGE_E_CONNECT');
    expect(e.field).toBe('target.sslmode');
  });
});
