import { describe, expect, it } from 'vitest';
import type { Client } from 'pg';
import type { PostgresqlTarget } from '@sledge/protocol';
import { PgLoaderSession } from './loader.js';

const host = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
const port = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);
const password = process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres';

describe('PostgreSQL loader session', () => {
  it('commits its per-unit COPYs without waiting for the WAL flush (synchronous_commit off, this session only)', async () => {
    const t = { engine: 'postgresql', host, port, user: 'postgres', password, database: 'postgres', superuser: 'postgres', superuserPassword: password, defaultDatabase: 'postgres', sslmode: 'prefer' } as PostgresqlTarget;
    const s = await PgLoaderSession.open(t, () => undefined);
    try {
      const c = (s as unknown as { c: Client }).c;
      const r = await c.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
      expect(r.rows[0]?.synchronous_commit).toBe('off');
      const global = await c.query<{ v: string }>("SELECT boot_val AS v FROM pg_settings WHERE name = 'synchronous_commit'");
      expect(global.rows[0]?.v).toBe('on');
    } finally {
      await s.close();
    }
  });
});
