import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuerySession } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { driver } from '../driver.js';
import { insertSql, MSSQL_MAX_PARAMS, MSSQL_SESSION_SQL, mssqlSessionSql, MssqlQuerySession, rowsPerInsert, sessionOpenOptions, valueParam, withMaxdop } from './query-session.js';
import { streamConfig, type StreamConn, type TdsParam } from './tds.js';
import { parseMssqlUrl } from './url.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const q = (sql: string) => ({ query: 1, statements: [{ sql, timed: true }] });

/** A fake tedious connection: records every request with its parameters. */
class FakeConn implements StreamConn {
  log: string[] = [];
  params: Array<readonly TdsParam[]> = [];
  failOn: RegExp | undefined;
  cancelled = 0;
  async rows(sql: string, params: readonly TdsParam[] = []): Promise<unknown[][]> {
    this.log.push(oneLine(sql));
    this.params.push(params);
    if (this.failOn?.test(sql)) throw Object.assign(new Error('Violation of PRIMARY KEY constraint'), { number: 2627 });
    return [[1, new Date('2026-01-02T00:00:00Z')]];
  }
  async exec(sql: string, params: readonly TdsParam[] = []): Promise<void> {
    await this.rows(sql, params);
  }
  begin = async () => void this.log.push('BEGIN');
  commit = async () => void this.log.push('COMMIT');
  rollback = async () => void this.log.push('ROLLBACK');
  cancel = async () => void this.cancelled++;
  close = async () => void this.log.push('CLOSE');
}

const rows = (n: number, k: number) => Array.from({ length: n }, (_, i) => Array.from({ length: k }, (_c, j) => (j === 0 ? i + 1 : j === 1 ? `v${i}` : j === 2 ? null : 1.5)));

describe('SQL Server query session (offline)', () => {
  it('engine/session.sql defines exactly the statements the session sends', () => {
    expect(Object.keys(mssqlSessionSql.file('session'))).toEqual([...MSSQL_SESSION_SQL.session]);
    expect(withMaxdop('SELECT 1;\n-- note\n', 3)).toBe('SELECT 1\nOPTION (MAXDOP 3)');
    expect(mssqlSessionSql.get('session', 'showplan_on')).toBe('SET SHOWPLAN_TEXT ON');
  });

  it('names the session sledge-<name> and sets the request timeout', () => {
    const t = parseMssqlUrl('mssql://sa:pw@db1:1433/chb');
    const o = sessionOpenOptions(t, 'sledge-chbench-2', 30);
    expect(o).toEqual({ database: 'chb', appName: 'sledge-chbench-2', requestTimeoutMs: 30000 });
    expect(streamConfig(t, o).options?.appName).toBe('sledge-chbench-2');
    expect(() => sessionOpenOptions({ ...t, database: 'x; DROP' }, 'a', 0)).toThrow(/target.database must be a plain identifier/);
  });

  it('insertRows splits at 1000 rows and 2098 parameters per INSERT, in one transaction', async () => {
    expect(rowsPerInsert(4)).toBe(524);
    expect(rowsPerInsert(2)).toBe(1000);
    expect(rowsPerInsert(3000)).toBe(1);
    expect(insertSql('t]x', ['a', 'b'], 2)).toBe('INSERT INTO [t]]x] ([a],[b]) VALUES (@p0,@p1),(@p2,@p3)');
    const c = new FakeConn();
    await new MssqlQuerySession(c, 0).insertRows('qs_item', ['id', 'name', 'note', 'price'], rows(5000, 4));
    expect(c.log[0]).toBe('BEGIN');
    expect(c.log.at(-1)).toBe('COMMIT');
    const inserts = c.params.filter((p) => p.length > 0);
    expect(inserts.map((p) => p.length)).toEqual([...Array(9).fill(524 * 4), (5000 - 9 * 524) * 4]);
    for (const p of inserts) expect(p.length).toBeLessThanOrEqual(MSSQL_MAX_PARAMS);
    expect(inserts[0]!.slice(0, 4)).toEqual([
      { name: 'p0', type: 'int', value: 1 },
      { name: 'p1', type: 'varchar', value: 'v0' },
      { name: 'p2', type: 'varchar', value: null },
      { name: 'p3', type: 'float', value: 1.5 },
    ]);
    const two = new FakeConn();
    await new MssqlQuerySession(two, 0).insertRows('t', ['a', 'b'], rows(2500, 2));
    expect(two.params.filter((p) => p.length > 0).map((p) => p.length / 2)).toEqual([1000, 1000, 500]);
    expect(valueParam('x', 2 ** 40)).toEqual({ name: 'x', type: 'bigint', value: 2 ** 40 });
  });

  it('insertRows rolls back on a failure and refuses bad input before sending anything', async () => {
    const c = new FakeConn();
    c.failOn = /^INSERT/;
    await expect(new MssqlQuerySession(c, 0).insertRows('t', ['a'], [[1]])).rejects.toThrow(/PRIMARY KEY/);
    expect(c.log.at(-1)).toBe('ROLLBACK');
    const d = new FakeConn();
    await expect(new MssqlQuerySession(d, 0).insertRows('t', ['a', 'b'], [[1]])).rejects.toThrow(/row 0 has 1 values for 2 columns/);
    expect(d.log).toEqual([]);
  });

  it('query appends MAXDOP and returns DATE as text; exec sends one batch; cancel sends an attention', async () => {
    const c = new FakeConn();
    const s = new MssqlQuerySession(c, 4);
    const r = await s.query(q('SELECT id, d FROM t;'), { fetch: true });
    expect(c.log[0]).toBe('SELECT id, d FROM t OPTION (MAXDOP 4)');
    expect(r.data).toEqual([[1, '2026-01-02']]);
    await s.exec('CREATE TABLE t (a int);');
    expect(c.log[1]).toBe('CREATE TABLE t (a int)');
    await s.cancel();
    expect(c.cancelled).toBe(1);
  });
});

/**
 * Live, only when SLEDGE_MSSQL_URL names a server (as the driver's other
 * live tests): a database sledge_qsession is created and dropped.
 */
const url = process.env['SLEDGE_MSSQL_URL'];
describe.skipIf(!url)('SQL Server query session (live, SLEDGE_MSSQL_URL)', () => {
  const base = url ? parseMssqlUrl(url) : undefined;
  const master = { ...base!, database: 'master' } as MssqlTarget;
  const target = { ...base!, database: 'sledge_qsession' } as MssqlTarget;
  let s: QuerySession;

  const onMaster = async (sql: string) => {
    const m = await driver.openQuerySession!(master, { name: 'qs-admin', dop: 0, queryTimeoutSec: 0, log: () => undefined });
    try {
      await m.exec(sql);
    } finally {
      await m.close();
    }
  };

  beforeAll(async () => {
    await onMaster("IF DB_ID('sledge_qsession') IS NOT NULL BEGIN ALTER DATABASE sledge_qsession SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE sledge_qsession; END");
    await onMaster('CREATE DATABASE sledge_qsession');
    s = await driver.openQuerySession!(target, { name: 'chbench-1', dop: 1, queryTimeoutSec: 0, log: () => undefined });
  });

  afterAll(async () => {
    await s?.close();
    await onMaster("IF DB_ID('sledge_qsession') IS NOT NULL BEGIN ALTER DATABASE sledge_qsession SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE sledge_qsession; END");
  });

  it('exec, insertRows 5,000 rows, query counts and fetches them; the session is named', async () => {
    await s.exec('CREATE TABLE qs_item (id int PRIMARY KEY, name varchar(20), price decimal(8,2), day date)');
    const data = Array.from({ length: 5000 }, (_, i) => [i + 1, `name ${i + 1}`, i % 3 === 0 ? null : (i * 1.5).toFixed(2), '2026-01-0' + ((i % 9) + 1)]);
    await s.insertRows('qs_item', ['id', 'name', 'price', 'day'], data);
    expect((await s.query(q('SELECT count(*), count(price) FROM qs_item'), { fetch: true })).data).toEqual([[5000, 3333]]);
    expect((await s.query(q('SELECT id, day FROM qs_item WHERE id = 2'), { fetch: true })).data).toEqual([[2, '2026-01-02']]);
    expect((await s.query(q('SELECT program_name FROM sys.dm_exec_sessions WHERE session_id = @@SPID'), { fetch: true })).data).toEqual([['sledge-chbench-1']]);
    expect(await s.explain(q('SELECT * FROM qs_item WHERE id = 7'))).toMatch(/Clustered Index Seek/);
  });

  it('the request timeout and cancel() stop a running query, classified as a timeout', async () => {
    const t = await driver.openQuerySession!(target, { name: 'chbench-2', dop: 0, queryTimeoutSec: 1, log: () => undefined });
    try {
      const e = await t.query(q("WAITFOR DELAY '00:00:03'")).then(() => undefined, (x: unknown) => x);
      expect(driver.classifyError(e).kind).toBe('timeout');
    } finally {
      await t.close();
    }
    const running = s.query(q("WAITFOR DELAY '00:00:30'")).then(() => undefined, (x: unknown) => x);
    await new Promise((r) => setTimeout(r, 300));
    await s.cancel();
    expect(driver.classifyError(await running).kind).toBe('timeout');
  });
});
