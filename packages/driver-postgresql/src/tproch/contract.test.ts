import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tprochHooks, type TprochAdmin } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';

/** Live: PostgreSQL at SLEDGE_PG_HOST:SLEDGE_PG_PORT (127.0.0.1:5432); database and role tpch_sl, dropped at the end. */
const target: PostgresqlTarget = {
  engine: 'postgresql',
  host: process.env['SLEDGE_PG_HOST'] ?? '127.0.0.1',
  port: Number(process.env['SLEDGE_PG_PORT'] ?? 5432),
  user: 'tpch_sl',
  password: 'tpch_sl',
  database: 'tpch_sl',
  superuser: 'postgres',
  superuserPassword: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres',
  defaultDatabase: 'postgres',
  sslmode: 'prefer',
  vacuum: false, prepared: true, noStoredProcs: false,
};

tprochContract({
  name: 'postgresql',
  driver,
  target,
  queries: sqlSet('postgresql', 'tproch').statements('queries.sql'),
  slowQuery: 'SELECT pg_sleep(30)',
});

describe('PostgreSQL TPROC-H stream session', () => {
  const hooks = tprochHooks(driver);
  let admin: TprochAdmin;

  beforeAll(async () => {
    admin = await hooks.openAdmin(target, () => undefined);
    await admin.dropSchema();
    await admin.createSchema({ scaleFactor: 0.01, buildVus: 1 });
  });

  afterAll(async () => {
    await admin.dropSchema();
    await admin.close();
  });

  it('sets the degree of parallelism, the statement timeout and application_name sledge-tproch-<n>', async () => {
    const s = await hooks.openStream(target, { stream: 4, dop: 3, queryTimeoutSec: 7, log: () => undefined });
    try {
      const sql = "SELECT current_setting('max_parallel_workers_per_gather'), current_setting('statement_timeout'), current_setting('application_name')";
      const r = await s.query({ query: 0, statements: [{ sql, timed: true }] }, { fetch: true });
      expect(r.data).toEqual([['3', '7s', 'sledge-tproch-4']]);
    } finally {
      await s.close();
    }
  });
});
