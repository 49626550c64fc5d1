import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuerySession } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { insertSql, PG_MAX_PARAMS, rowsPerInsert } from './query-session.js';

/** Live: PostgreSQL at SLEDGE_PG_HOST:SLEDGE_PG_PORT (127.0.0.1:5432); database sledge_qsession, dropped at the end. */
const host = process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1';
const port = Number(process.env['SLEDGE_PG_PORT'] ?? 5432);
const su = { host, port, user: 'postgres', password: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres', database: 'postgres' };
const DB = 'sledge_qsession';
const target: PostgresqlTarget = {
  engine: 'postgresql',
  host,
  port,
  user: su.user,
  password: su.password,
  database: DB,
  superuser: su.user,
  superuserPassword: su.password,
  defaultDatabase: 'postgres',
  sslmode: 'prefer',
  vacuum: false,
  prepared: true, noStoredProcs: false,
};

const q = (sql: string) => ({ query: 1, statements: [{ sql, timed: true }] });
const N = 5000;
const rows = Array.from({ length: N }, (_, i) => [i + 1, `name ${i + 1}`, i % 3 === 0 ? null : (i * 1.5).toFixed(2), '2026-01-0' + ((i % 9) + 1)] as const);

async function admin<R>(f: (c: pg.Client) => Promise<R>): Promise<R> {
  const c = new pg.Client(su);
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

describe('insert batching (offline)', () => {
  it('splits at 65535 bound parameters', () => {
    expect(rowsPerInsert(4, PG_MAX_PARAMS)).toBe(16383);
    expect(rowsPerInsert(70000, PG_MAX_PARAMS)).toBe(1);
    expect(insertSql((s) => `"${s}"`, 't', ['a', 'b'], 2)).toBe('INSERT INTO "t" ("a","b") VALUES ($1,$2),($3,$4)');
  });
});

describe('PostgreSQL query session (live)', () => {
  let s: QuerySession;

  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${DB}`);
    });
    s = await driver.openQuerySession!(target, { name: 'chbench-1', dop: 2, queryTimeoutSec: 0, log: () => undefined });
  });

  afterAll(async () => {
    await s?.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  });

  it('exec creates a table; insertRows loads 5,000 rows in one transaction; query counts and fetches them', async () => {
    await s.exec('CREATE TABLE qs_item (id integer PRIMARY KEY, name text, price numeric(8,2), day date)');
    await s.insertRows('qs_item', ['id', 'name', 'price', 'day'], rows);
    const count = await s.query(q('SELECT count(*), count(price) FROM qs_item'), { fetch: true });
    expect(count.rows).toBe(1);
    expect(count.ms).toBeGreaterThanOrEqual(0);
    expect(count.data).toEqual([['5000', String(N - Math.ceil(N / 3))]]);
    const some = await s.query(q('SELECT id, name, price, day FROM qs_item WHERE id IN (1, 2) ORDER BY id'), { fetch: true });
    expect(some.data).toEqual([
      [1, 'name 1', null, '2026-01-01'],
      [2, 'name 2', '1.50', '2026-01-02'],
    ]);
    const noData = await s.query(q('SELECT id FROM qs_item'));
    expect(noData.rows).toBe(N);
    expect(noData.data).toBeUndefined();
  });

  it('insertRows rolls back the whole batch set on a failure and refuses bad input', async () => {
    await expect(s.insertRows('qs_item', ['id', 'name', 'price', 'day'], [[N + 1, 'x', null, null], [1, 'dup', null, null]])).rejects.toThrow(/duplicate key/);
    expect((await s.query(q(`SELECT count(*) FROM qs_item WHERE id = ${N + 1}`), { fetch: true })).data).toEqual([['0']]);
    await expect(s.insertRows('qs_item', ['id', 'name'], [[1]])).rejects.toThrow(/row 0 has 1 values for 2 columns/);
    await expect(s.insertRows('qs_item', [], [])).rejects.toThrow(/no columns/);
  });

  it('names the session sledge-<name> and sets the degree of parallelism', async () => {
    const r = await s.query(q("SELECT current_setting('application_name'), current_setting('max_parallel_workers_per_gather')"), { fetch: true });
    expect(r.data).toEqual([['sledge-chbench-1', '2']]);
    const seen = await admin((c) => c.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'sledge-chbench-1' AND datname = $1", [DB]));
    expect(seen.rows[0]!.n).toBe('1');
  });

  it('explain returns the plan as text', async () => {
    expect(await s.explain(q('SELECT * FROM qs_item WHERE id = 7'))).toMatch(/Index Scan .* on qs_item/);
  });

  it('a query past queryTimeoutSec fails with 57014, classified as a timeout', async () => {
    const t = await driver.openQuerySession!(target, { name: 'chbench-2', dop: 0, queryTimeoutSec: 1, log: () => undefined });
    try {
      const e = await t.query(q('SELECT pg_sleep(3)')).then(() => undefined, (x: unknown) => x);
      expect(driver.classifyError(e)).toMatchObject({ kind: 'timeout', code: '57014' });
      // The session stays usable after the timeout.
      expect((await t.query(q('SELECT 1'), { fetch: true })).data).toEqual([[1]]);
    } finally {
      await t.close();
    }
  });

  it('cancel() from another promise stops a running query', async () => {
    const running = s.query(q('SELECT pg_sleep(30)')).then(() => undefined, (x: unknown) => x);
    await new Promise((r) => setTimeout(r, 300));
    await s.cancel();
    const e = await running;
    expect(e).toBeInstanceOf(Error);
    expect(driver.classifyError(e).kind).toBe('timeout');
    expect((await s.query(q('SELECT 2'), { fetch: true })).data).toEqual([[2]]);
  });
});
