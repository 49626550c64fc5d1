import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { TproccGenerator } from '@sledge/core';
import { SledgeError, type PostgresqlTarget } from '@sledge/protocol';
import { loadPgVuLoop, type NativeLoader } from '@sledge/worker-native';
import { PgLoaderSession, pgLoaderClient } from './loader.js';

const host = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
const port = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);
const password = process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres';
const NATIVE = loadPgVuLoop().available;
const DBS = ['sledge_pgtest_loader_a', 'sledge_pgtest_loader_b'];

const target = (database: string) =>
  ({ engine: 'postgresql', host, port, user: 'postgres', password, database, superuser: 'postgres', superuserPassword: password, defaultDatabase: 'postgres', sslmode: 'prefer' }) as PostgresqlTarget;

/** Opens a loader session with SLEDGE_PGLOADER set to `client` (the server's build workers read it the same way). */
async function openWith(client: 'libpq' | 'node-postgres', database: string, logs: string[] = []): Promise<PgLoaderSession> {
  const env0 = process.env.SLEDGE_PGLOADER;
  process.env.SLEDGE_PGLOADER = client;
  try {
    return await PgLoaderSession.open(target(database), (l) => void logs.push(l));
  } finally {
    if (env0 === undefined) delete process.env.SLEDGE_PGLOADER;
    else process.env.SLEDGE_PGLOADER = env0;
  }
}

/** SHOW on the session itself, whichever client it is. */
async function show(s: PgLoaderSession, name: string): Promise<string | null | undefined> {
  const x = s as unknown as { native: NativeLoader | null; c: pg.Client | null };
  if (x.native) return (await x.native.query(`SHOW ${name}`)).rows?.[0]?.[name];
  return (await x.c!.query<Record<string, string>>(`SHOW ${name}`)).rows[0]?.[name];
}

async function admin<T>(database: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ host, port, user: 'postgres', password, database });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin('postgres', async (c) => {
    for (const db of DBS) {
      await c.query(`DROP DATABASE IF EXISTS ${db}`);
      await c.query(`CREATE DATABASE ${db}`);
    }
  });
  for (const db of DBS) {
    await admin(db, (c) => c.query('CREATE TABLE item (i_id integer PRIMARY KEY, i_im_id integer NOT NULL, i_name varchar(24) NOT NULL, i_price numeric(5,2) NOT NULL, i_data varchar(50) NOT NULL)'));
  }
});
afterAll(async () => {
  await admin('postgres', async (c) => {
    for (const db of DBS) await c.query(`DROP DATABASE IF EXISTS ${db}`);
  });
});

describe('PostgreSQL loader session', () => {
  it.each(['libpq', 'node-postgres'] as const)('%s: commits its per-unit COPYs without waiting for the WAL flush (synchronous_commit off, this session only)', async (client) => {
    const logs: string[] = [];
    const s = await openWith(client, 'postgres', logs);
    try {
      // node-postgres is the default and says nothing; libpq says which client it got.
      expect(logs).toEqual(client === 'node-postgres' ? [] : [NATIVE ? 'PostgreSQL loader: COPY through libpq' : 'PostgreSQL loader: COPY through node-postgres (the native libpq loop is not built)']);
      expect(await show(s, 'synchronous_commit')).toBe('off');
      expect(await show(s, 'application_name')).toBe('sledge-loader');
      const global = await admin('postgres', (c) => c.query<{ v: string }>("SELECT boot_val AS v FROM pg_settings WHERE name = 'synchronous_commit'"));
      expect(global.rows[0]?.v).toBe('on');
    } finally {
      await s.close();
    }
  });

  it('loads the same rows through libpq and through node-postgres, and a failed COPY is a typed error that changes nothing', async () => {
    const gen = new TproccGenerator({ seed: 3, timestamp: '2026-11-25 00:00:00' }, 'pg-text');
    const tables = gen.generate({ kind: 'item', from: 1, to: 10000 });
    const sums: string[] = [];
    for (const [i, client] of (['libpq', 'node-postgres'] as const).entries()) {
      const s = await openWith(client, DBS[i]!);
      try {
        await s.load(tables.map((t) => ({ ...t, data: Buffer.from(t.data as string, 'utf8') })));
        // The same unit again: every row collides with its primary key.
        const e = await s.load(tables).then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(SledgeError);
        expect((e as SledgeError).code).toBe('SLEDGE_E_DB');
        expect((e as SledgeError).message).toMatch(/^loading 10000 rows into item failed \(SQLSTATE 23505\): duplicate key value violates unique constraint/);
      } finally {
        await s.close();
      }
      sums.push(await admin(DBS[i]!, async (c) => (await c.query<{ n: string; md5: string }>('SELECT count(*) AS n, md5(string_agg(item::text, \'|\' ORDER BY i_id)) AS md5 FROM item')).rows.map((r) => `${r.n} ${r.md5}`)[0]!));
    }
    expect(sums[0]).toMatch(/^10000 [0-9a-f]{32}$/);
    expect(sums[1]).toBe(sums[0]);
  });

  it('refuses an unknown SLEDGE_PGLOADER with a typed error', () => {
    expect(pgLoaderClient(undefined)).toBe('node-postgres');
    expect(pgLoaderClient('')).toBe('node-postgres');
    expect(pgLoaderClient('libpq')).toBe('libpq');
    expect(() => pgLoaderClient('auto')).toThrow('SLEDGE_PGLOADER must be node-postgres or libpq, not "auto"');
  });
});
