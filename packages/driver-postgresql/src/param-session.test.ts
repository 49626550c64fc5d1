import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { paramSessionContract, pgbenchTablesSqlOf } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import type { PgTproccTarget } from './tprocc/target.js';
import { driver } from './index.js';
import { contractTarget } from './testing/contract.js';

// The script workload's session on pgbench's tables (packages/sql/postgresql/script/), in a database of its own.
const DB = 'script_workload_pgparam';
const target: PgTproccTarget = contractTarget(DB, 'postgres', { password: process.env['SLEDGE_PG_SUPERUSER_PASSWORD'] ?? 'postgres' });

async function admin(fn: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const c = new pg.Client({ host: target.host, port: target.port, user: target.superuser, password: target.superuserPassword, database: 'postgres' });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

paramSessionContract({
  name: 'postgresql',
  driver,
  target,
  sql: pgbenchTablesSqlOf(sqlSet('postgresql', 'script')),
  prepare: () => admin(async (c) => {
    if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount === 0) await c.query(`CREATE DATABASE ${DB}`);
  }),
  cleanup: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)),
});

describe('named prepared statements (target.prepared)', () => {
  const statementsAfterTwoRuns = async (prepared: boolean) => {
    // The contract above drops its database when it ends: this one runs in postgres, reading only.
    const s = await driver.openParamSession!({ ...target, database: 'postgres', prepared }, { name: 'prepared-test', log: () => undefined });
    try {
      for (let i = 0; i < 2; i++) expect(await s.run('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
      return (await s.run('SELECT name, statement FROM pg_prepared_statements ORDER BY name', [])).map((r) => `${String(r.name)}: ${String(r.statement)}`);
    } finally {
      await s.close();
    }
  };

  it('prepares each distinct statement once per connection, as pgbench -M prepared', async () => {
    expect(await statementsAfterTwoRuns(true)).toEqual(['sledge_s1: SELECT $1::int + 1 AS n']);
  });

  it('prepared: false sends them unnamed, as pgbench -M extended', async () => {
    expect(await statementsAfterTwoRuns(false)).toEqual([]);
  });
});
