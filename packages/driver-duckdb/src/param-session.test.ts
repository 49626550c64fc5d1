import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paramSessionContract, pgbenchTablesSqlOf } from '@sledge/driver-testkit';
import type { ParamSession } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import { sqlSet } from '@sledge/sql';
import { driver } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-duckdb-param-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pgbench = pgbenchTablesSqlOf(sqlSet('duckdb', 'script'));

// The script workload's session on a file the session creates (packages/sql/duckdb/script/).
paramSessionContract({ name: 'duckdb', driver, target: { engine: 'duckdb', file: join(dir, 'contract.duckdb') }, sql: pgbench });

describe('DuckDB parameter session: what differs from the other engines', () => {
  const target: DuckdbTarget = { engine: 'duckdb', file: join(dir, 'own.duckdb') };
  const open = (create = false) => driver.openParamSession!(target, { name: 'test', log: () => undefined, ...(create ? { create: true } : {}) });
  let a: ParamSession;
  let b: ParamSession;

  beforeAll(async () => {
    a = await open(true);
    for (const st of [...pgbench.drop, ...pgbench.tables]) await a.run(st, []);
    await a.run('INSERT INTO pgbench_branches (bid, bbalance) VALUES ($1, $2), ($3, $4)', [1, 0, 2, 0]);
    for (const st of pgbench.keys) await a.run(st, []);
    b = await open();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('is offered as a capability: $n placeholders, no pipeline, sessions on the main thread', () => {
    expect(a.placeholder(3)).toBe('$3');
    expect(a.pipeline).toBeUndefined();
    expect(driver.paramPipelines).toBeUndefined();
    expect(driver.features({ engine: 'duckdb', file: target.file }).mainThreadSessions).toBe(true);
  });

  it('two sessions of one thread share the instance: each sees what the other committed', async () => {
    await a.begin();
    await a.run('UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [5, 1]);
    expect(Number((await b.run('SELECT bbalance FROM pgbench_branches WHERE bid = $1', [1]))[0]!['bbalance'])).toBe(0);
    await a.commit();
    expect(Number((await b.run('SELECT bbalance FROM pgbench_branches WHERE bid = $1', [1]))[0]!['bbalance'])).toBe(5);
  });

  it('a second transaction updating the same row fails with "Conflict on update", classified serialization; the first commits', async () => {
    await a.begin();
    await b.begin();
    await a.run('UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [1, 2]);
    const e = await b.run('UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [10, 2]).then(() => undefined, (x: unknown) => x);
    await b.rollback();
    await a.commit();
    expect(String((e as Error).message)).toMatch(/Conflict/i);
    expect(driver.classifyError(e)).toMatchObject({ kind: 'serialization', retryable: true });
    expect(Number((await b.run('SELECT bbalance FROM pgbench_branches WHERE bid = $1', [2]))[0]!['bbalance'])).toBe(1);
    // Updates of different rows do not conflict.
    await a.begin();
    await b.begin();
    await a.run('UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [1, 1]);
    await b.run('UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', [1, 2]);
    await a.commit();
    await b.commit();
    expect((await a.run('SELECT bid, bbalance FROM pgbench_branches ORDER BY bid', [])).map((r) => [Number(r['bid']), Number(r['bbalance'])])).toEqual([[1, 6], [2, 2]]);
  });

  it('rows only for statements that return them (RETURNING included); a ROLLBACK with no transaction is a no-op', async () => {
    expect(await a.run('UPDATE pgbench_branches SET bbalance = bbalance WHERE bid = $1', [1])).toEqual([]);
    expect(await a.run('UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2 RETURNING bbalance', [1, 1])).toEqual([{ bbalance: 7 }]);
    await a.rollback();
    const [row] = await a.run('SELECT $1::BIGINT AS big, $2 AS d, $3 AS t, $4 AS f, $5::VARCHAR AS n, sum(bbalance) AS s FROM pgbench_branches', [2 ** 40, 1.5, true, 'x', null]);
    expect(row).toEqual({ big: 2 ** 40, d: 1.5, t: true, f: 'x', n: null, s: 9 });
  });

  it('without create, a missing file is SLEDGE_E_SCHEMA_MISSING; a closed session refuses to run', async () => {
    await expect(driver.openParamSession!({ engine: 'duckdb', file: join(dir, 'none.duckdb') }, { name: 't', log: () => undefined })).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_MISSING', field: 'target.file' });
    const c = await open();
    await c.close();
    await expect(c.run('SELECT 1', [])).rejects.toThrow(/closed/);
  });
});
