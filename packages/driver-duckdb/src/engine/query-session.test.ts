import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckdbTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { connect, type Handle } from './connection.js';
import { insertSql, threadsStatement, type DuckdbQuerySession } from './query-session.js';

const target: DuckdbTarget = { engine: 'duckdb', file: ':memory:' };
const slow = 'SELECT count(*) FROM range(1000000) a, range(1000000) b WHERE (a.range + b.range) % 7 = 3';
const q = (sql: string) => ({ query: 0, statements: [{ sql, timed: true }] });

describe('DuckDB query session (in memory)', () => {
  let hold: Handle;
  let s: DuckdbQuerySession;

  beforeAll(async () => {
    // The in-memory database lives while a session of this thread holds it.
    hold = await connect(target, 'create');
    s = (await driver.openQuerySession!(target, { name: 'test', dop: 2, queryTimeoutSec: 0, log: () => undefined })) as DuckdbQuerySession;
  });
  afterAll(async () => {
    await s.close();
    hold.release();
  });

  it('sets threads as the degree of parallelism', async () => {
    expect((await s.query(q("SELECT current_setting('threads')"), { fetch: true })).data).toEqual([[2]]);
    expect(() => threadsStatement(0)).toThrow(/positive integer/);
  });

  it('exec and insertRows: rows in batches, one transaction, values as given', async () => {
    await s.exec('CREATE TABLE r (k INTEGER, name VARCHAR, d DATE, x DECIMAL(15,2))');
    const rows = Array.from({ length: 1234 }, (_, i) => [i, `n${i}`, '1995-03-05', i / 100] as const);
    await s.insertRows('r', ['k', 'name', 'd', 'x'], rows);
    const r = await s.query(q('SELECT count(*), max(k), min(d), sum(x) FROM r'), { fetch: true });
    expect(r.data).toEqual([[1234, 1233, '1995-03-05', 7607.61]]);
    await expect(s.insertRows('r', ['k'], [[1, 2]])).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'rows' });
    expect(insertSql('r', ['a', 'b'], 2)).toBe('INSERT INTO "r" ("a","b") VALUES ($1,$2),($3,$4)');
  });

  it('explains without running; profile runs and shows operator timings', async () => {
    const plan = await s.explain(q('SELECT name FROM r WHERE k > 10'));
    expect(plan).toMatch(/SEQ_SCAN|TABLE_SCAN/);
    const profile = await s.profile(q('SELECT name FROM r WHERE k > 10'));
    expect(profile).toMatch(/Total Time/);
  });

  it('cancel() interrupts a running query within a second; the session goes on', async () => {
    const running = s.query(q(slow)).then(
      () => 'finished',
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    await s.cancel();
    const e = await running;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(driver.classifyError(e)).toMatchObject({ kind: 'timeout' });
    expect((e as Error).message).toBe('query cancelled');
    expect((await s.query(q('SELECT 1'))).rows).toBe(1);
  });

  it('the statement timeout interrupts a long query', async () => {
    const t = (await driver.openQuerySession!(target, { name: 't', dop: 1, queryTimeoutSec: 1, log: () => undefined })) as DuckdbQuerySession;
    try {
      const e = await t.query(q(slow)).then(
        () => 'finished',
        (x: unknown) => x,
      );
      expect((e as Error).message).toContain('statement timeout (1 s)');
      expect(driver.classifyError(e).kind).toBe('timeout');
    } finally {
      await t.close();
    }
    await expect(t.query(q('SELECT 1'))).rejects.toMatchObject({ code: 'DUCKDB_CLOSED' });
  });
});
