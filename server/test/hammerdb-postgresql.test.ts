import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { err, expectSucceeded, hdb, jobIdOf, message, ok, waitComplete } from './hammerdb-api.js';
import { makeApp, type SledgeApp } from './helpers.js';

/** The HammerDB-compatible command API on the local PostgreSQL: the pg_ keys, buildschema and deleteschema (the rest: hammerdb.test.ts). */

describe('PostgreSQL through the HammerDB API', () => {
  let s: SledgeApp;
  const pw = 'Hdb-pg-Secret-7';
  const diset = (dict: string, key: string, value: string) => hdb(s, 'POST', '/diset', ` "dict": "${dict}", "key": "${key}", "value": "${value}" `);

  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('sets the pg_ keys, builds 1 warehouse and deletes it', async () => {
    expect(await hdb(s, 'POST', '/dbset', ' "db": "pg" ')).toEqual(ok('Database set to PostgreSQL'));
    expect(await diset('connection', 'pg_host', '127.0.0.1')).toEqual(ok('Changed connection:pg_host from localhost to 127.0.0.1 for PostgreSQL'));
    expect(await diset('connection', 'pg_port', '5432')).toEqual(ok('Value 5432 for connection:pg_port is the same as existing value 5432, no change made'));
    expect(await diset('connection', 'pg_sslmode', 'allow')).toEqual(err('Value allow for connection:pg_sslmode must be one of disable, prefer, require, verify-full'));
    expect(await diset('connection', 'pg_sslmode', 'disable')).toEqual(ok('Changed connection:pg_sslmode from prefer to disable for PostgreSQL'));
    expect(await diset('tpcc', 'pg_superuser', 'postgres')).toEqual(ok('Value postgres for tpcc:pg_superuser is the same as existing value postgres, no change made'));
    expect(await diset('tpcc', 'pg_superuserpass', 'postgres')).toEqual(ok('Value ******** for tpcc:pg_superuserpass is the same as existing value ********, no change made'));
    expect(await diset('tpcc', 'pg_user', 'sledge_hdb_pg')).toEqual(ok('Changed tpcc:pg_user from tpcc to sledge_hdb_pg for PostgreSQL'));
    expect(await diset('tpcc', 'pg_pass', pw)).toEqual(ok('Changed tpcc:pg_pass from ******** to ******** for PostgreSQL'));
    expect(await diset('tpcc', 'pg_dbase', 'sledge_hdb_pg')).toEqual(ok('Changed tpcc:pg_dbase from tpcc to sledge_hdb_pg for PostgreSQL'));
    expect(await diset('tpcc', 'pg_count_ware', '1')).toEqual(ok('Value 1 for tpcc:pg_count_ware is the same as existing value 1, no change made'));
    expect(await diset('tpcc', 'pg_storedprocs', 'true')).toEqual(ok('Changed tpcc:pg_storedprocs from false to true for PostgreSQL'));
    // A leftover from an earlier run goes first (deleteschema of a missing schema completes too).
    const pre = await hdb(s, 'POST', '/deleteschema', '');
    await waitComplete(s, jobIdOf(pre));
    await hdb(s, 'POST', '/vudestroy', '');

    const b = await hdb(s, 'POST', '/buildschema', '');
    expect(message(b)).toMatch(/^Building 1 Warehouses\(s\) with 1 Virtual User: JOBID=[0-9A-F]{24}$/);
    const buildId = jobIdOf(b);
    expectSucceeded(await waitComplete(s, buildId));
    const dict = (await hdb(s, 'GET', `/jobs?jobid=${buildId}&dict`)) as Record<string, Record<string, string>>;
    expect(dict['connection']).toEqual({ pg_host: '127.0.0.1', pg_port: '5432', pg_sslmode: 'disable' });
    expect(dict['tpcc']).toMatchObject({ pg_user: 'sledge_hdb_pg', pg_dbase: 'sledge_hdb_pg', pg_pass: '********', pg_superuserpass: '********', pg_count_ware: '1', pg_num_vu: '1', pg_storedprocs: 'true' });
    expect(await hdb(s, 'GET', `/jobs?jobid=${buildId}&db`)).toEqual(['PostgreSQL', expect.stringMatching(/^\d+\.\d+/)]);
    for (const url of [`/jobs?jobid=${buildId}`, `/jobs?jobid=${buildId}&dict`, '/print?dict', '/print?script']) {
      await hdb(s, 'POST', '/loadscript', '');
      const r = await s.app.inject({ method: 'GET', url });
      expect(r.body).not.toContain(pw);
    }

    const d = await hdb(s, 'POST', '/deleteschema', '');
    expect(message(d)).toMatch(/^Deleting schema with 1 Virtual User: JOBID=[0-9A-F]{24}$/);
    expectSucceeded(await waitComplete(s, jobIdOf(d)));
    const out = ((await hdb(s, 'GET', `/jobs?jobid=${jobIdOf(d)}`)) as string[]).filter((_, i) => i % 2 === 1);
    expect(out).toContain('PostgreSQL TPROC-C Schema deleted');
  });
});
