import { describe, expect, it } from 'vitest';
import type { PostgresqlTarget } from '@sledge/protocol';
import { APP_MONITOR } from './config.js';
import { closeQuietly, connect } from './connect.js';
import { connectError } from '../testing/connect-error.js';

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

describe('connect', () => {
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
