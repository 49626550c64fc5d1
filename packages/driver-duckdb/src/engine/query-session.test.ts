import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckdbTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { connect, type Handle } from './connection.js';
import { parseDuckdbProfile } from './profile.js';
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

  it("query(profile): DuckDB's JSON profile of the timed statement as operator rows, and the process CPU", async () => {
    const sql = 'SELECT k % 7 AS g, count(*) FROM r WHERE k > 10 GROUP BY g ORDER BY g';
    const r = await s.query({ query: 3, statements: [{ sql: 'SELECT 42', timed: false }, { sql, timed: true }] }, { profile: true });
    expect(r.rows).toBe(7);
    expect(r.cpuSeconds).toBeGreaterThanOrEqual(0);
    const p = r.profile!;
    expect(p.seconds).toBeGreaterThan(0);
    expect(p.operators[0]!.depth).toBe(0);
    const scan = p.operators.find((o) => /SCAN/.test(o.name))!;
    expect(scan).toMatchObject({ rows: 1223 });
    expect(scan.detail).toContain('r');
    expect(p.operators.find((o) => o.name === 'HASH_GROUP_BY')).toMatchObject({ rows: 7 });
    // Profiling covers the timed statement only: the next query, not asked, has none.
    const next = await s.query(q('SELECT count(*) FROM r'));
    expect(next.profile).toBeUndefined();
    expect(next.cpuSeconds).toBeGreaterThanOrEqual(0);
  });

  it('parseDuckdbProfile: null for other statements and for text that is not a profile', () => {
    const doc = JSON.stringify({ query_name: 'SELECT  1', latency: 0.5, cpu_time: 0.25, children: [{ operator_name: 'PROJECTION', operator_timing: 0.1, operator_cardinality: 1, extra_info: { Projections: ['1'] }, children: [] }] });
    expect(parseDuckdbProfile(doc, 'SELECT 1')).toEqual({ seconds: 0.5, cpuSeconds: 0.25, operators: [{ depth: 0, name: 'PROJECTION', seconds: 0.1, rows: 1, detail: 'Projections: 1' }] });
    expect(parseDuckdbProfile(doc, 'SELECT 2')).toBeNull();
    expect(parseDuckdbProfile('not json', 'SELECT 1')).toBeNull();
    expect(parseDuckdbProfile('[]', 'SELECT 1')).toBeNull();
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
