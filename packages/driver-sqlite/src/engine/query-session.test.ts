import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuerySession } from '@sledge/core';
import type { SqliteTarget } from '@sledge/protocol';
import { driver } from '../index.js';
import { insertSql, rowsPerInsert, SQLITE_MAX_PARAMS } from './query-session.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-sqlite-qsession-'));
const target: SqliteTarget = { engine: 'sqlite', file: join(dir, 'qsession.sqlite'), busyTimeoutMs: 5000, synchronous: 'normal' };

const q = (sql: string) => ({ query: 1, statements: [{ sql, timed: true }] });
/** A recursive count to a billion: minutes of work for SQLite. */
const SLOW = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000000) SELECT count(*) FROM r';
const N = 5000;
const rows = Array.from({ length: N }, (_, i) => [i + 1, `name ${i + 1}`, i % 3 === 0 ? null : i * 1.5, '2026-01-0' + ((i % 9) + 1)] as const);

describe('insert batching (offline)', () => {
  it('splits at 32766 bound parameters', () => {
    expect(rowsPerInsert(4, SQLITE_MAX_PARAMS)).toBe(8191);
    expect(rowsPerInsert(40000, SQLITE_MAX_PARAMS)).toBe(1);
    expect(insertSql('t', ['a', 'b"c'], 2)).toBe('INSERT INTO "t" ("a","b""c") VALUES (?,?),(?,?)');
  });
});

describe('SQLite query session (live, temp file)', () => {
  let s: QuerySession;

  beforeAll(async () => {
    new Database(target.file).close();
    s = await driver.openQuerySession!(target, { name: 'chbench-1', dop: 4, queryTimeoutSec: 0, log: () => undefined });
  });

  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exec creates a table; insertRows loads 5,000 rows in one transaction; query counts and fetches them', async () => {
    await s.exec('CREATE TABLE qs_item (id integer PRIMARY KEY, name text, price real, day date)');
    await s.insertRows('qs_item', ['id', 'name', 'price', 'day'], rows);
    const count = await s.query(q('SELECT count(*), count(price) FROM qs_item'), { fetch: true });
    expect(count.rows).toBe(1);
    expect(count.ms).toBeGreaterThanOrEqual(0);
    expect(count.data).toEqual([[N, N - Math.ceil(N / 3)]]);
    const some = await s.query(q('SELECT id, name, price, day FROM qs_item WHERE id IN (1, 2) ORDER BY id'), { fetch: true });
    expect(some.data).toEqual([
      [1, 'name 1', null, '2026-01-01'],
      [2, 'name 2', 1.5, '2026-01-02'],
    ]);
    const noData = await s.query(q('SELECT id FROM qs_item'));
    expect(noData.rows).toBe(N);
    expect(noData.data).toBeUndefined();
  });

  it('insertRows rolls back on a failure, refuses bad input; exec takes one statement', async () => {
    await expect(s.insertRows('qs_item', ['id', 'name', 'price', 'day'], [[N + 1, 'x', null, null], [1, 'dup', null, null]])).rejects.toThrow(/UNIQUE constraint/);
    expect((await s.query(q(`SELECT count(*) FROM qs_item WHERE id = ${N + 1}`), { fetch: true })).data).toEqual([[0]]);
    await expect(s.insertRows('qs_item', ['id', 'name'], [[1]])).rejects.toThrow(/row 0 has 1 values for 2 columns/);
    await expect(s.exec('SELECT 1; SELECT 2')).rejects.toThrow(/one statement/);
  });

  it('explain returns the plan as text', async () => {
    expect(await s.explain(q('SELECT * FROM qs_item WHERE id = 7'))).toMatch(/SEARCH qs_item USING INTEGER PRIMARY KEY/);
  });

  it('a query past queryTimeoutSec is stopped (SQLITE_INTERRUPT), classified as a timeout', async () => {
    const t = await driver.openQuerySession!(target, { name: 'chbench-2', dop: 0, queryTimeoutSec: 1, log: () => undefined });
    try {
      const e = await t.query(q(SLOW)).then(() => undefined, (x: unknown) => x);
      expect(driver.classifyError(e)).toMatchObject({ kind: 'timeout', code: 'SQLITE_INTERRUPT' });
      expect((await t.query(q('SELECT 1'), { fetch: true })).data).toEqual([[1]]);
    } finally {
      await t.close();
    }
  });

  it('cancel() from another promise stops a running query', async () => {
    const running = s.query(q(SLOW)).then(() => undefined, (x: unknown) => x);
    await new Promise((r) => setTimeout(r, 500));
    await s.cancel();
    const e = await running;
    expect(driver.classifyError(e)).toMatchObject({ kind: 'timeout', code: 'SQLITE_INTERRUPT', message: 'query cancelled' });
    expect((await s.query(q('SELECT 2'), { fetch: true })).data).toEqual([[2]]);
  });

  // SQLite has no session names: opts.name is not shown anywhere (nothing to assert).
});
