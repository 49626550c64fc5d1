import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuerySession } from '@sledge/core';
import type { Db2Target } from '@sledge/protocol';
import { driver } from '../driver.js';
import type { IbmDatabase, IbmParam } from './library.js';
import { DB2_MAX_PARAMS, DB2_SESSION_SQL, Db2QuerySession, db2SessionSql, insertSql, planBaseOf, rowsPerInsert, type IbmResult, type IbmStatement, type StreamDb } from './query-session.js';
import { parseDb2Url } from './url.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const q = (sql: string) => ({ query: 3, statements: [{ sql, timed: true }] });
const noSide = async (): Promise<IbmDatabase> => {
  throw new Error('no side connection expected');
};

/** A fake ibm_db Database: records statements, parameters and transactions. */
class FakeDb implements StreamDb {
  connected = true;
  log: string[] = [];
  params: IbmParam[][] = [];
  failOn: RegExp | undefined;
  answer: (sql: string) => unknown[] = () => [];
  async query(sql: string, params: IbmParam[] = []): Promise<unknown> {
    this.log.push(oneLine(sql));
    this.params.push(params);
    if (this.failOn?.test(sql)) throw Object.assign(new Error('[IBM][CLI Driver][DB2/LINUXX8664] SQL0803N duplicate key SQLSTATE=23505'), { sqlcode: -803, state: '23505' });
    return this.answer(sql);
  }
  async prepare(sql: string): Promise<IbmStatement> {
    this.log.push(`PREPARE ${oneLine(sql)}`);
    const result: IbmResult = { fetchAll: async () => [[1, '2026-01-02']], close: async () => this.log.push('RESULT CLOSE') };
    return { setAttrSync: () => undefined, execute: async () => result, close: async () => this.log.push('STMT CLOSE') };
  }
  beginTransaction = async () => this.log.push('BEGIN');
  commitTransaction = async () => this.log.push('COMMIT');
  rollbackTransaction = async () => this.log.push('ROLLBACK');
  close = async () => {
    this.connected = false;
    this.log.push('CLOSE');
  };
}

describe('Db2 query session (offline)', () => {
  it('engine/session.sql defines exactly the statements the session sends', () => {
    expect(Object.keys(db2SessionSql.file('session'))).toEqual([...DB2_SESSION_SQL.session]);
    expect(db2SessionSql.get('session', 'session_degree', { dop: 8 })).toBe("SET CURRENT DEGREE '8'");
    expect(db2SessionSql.get('session', 'set_client_applname')).toBe('CALL SYSPROC.WLM_SET_CLIENT_INFO(NULL, NULL, ?, NULL, NULL)');
    expect(db2SessionSql.get('session', 'cancel_activity')).toBe('CALL WLM_CANCEL_ACTIVITY(?, ?, ?)');
  });

  it('setup names the session sledge-<name>, sets CURRENT DEGREE and reads the application handle', async () => {
    const db = new FakeDb();
    db.answer = (sql) => (sql.includes('MON_GET_APPLICATION_HANDLE') ? [{ HANDLE: 42 }] : []);
    expect(await Db2QuerySession.setup(db, { applName: 'sledge-chbench-2', dop: 3 })).toBe(42);
    expect(db.log).toEqual(['CALL SYSPROC.WLM_SET_CLIENT_INFO(NULL, NULL, ?, NULL, NULL)', "SET CURRENT DEGREE '3'", 'SELECT MON_GET_APPLICATION_HANDLE() AS handle FROM sysibm.sysdummy1']);
    expect(db.params[0]).toEqual(['sledge-chbench-2']);
    expect(planBaseOf('chbench-2')).toBe(10200);
  });

  it('insertRows splits at 1000 rows and 32767 parameter markers, in one transaction', async () => {
    expect(rowsPerInsert(4)).toBe(1000);
    expect(rowsPerInsert(100)).toBe(327);
    expect(rowsPerInsert(40000)).toBe(1);
    expect(insertSql('qs_item', ['a', 'b'], 2)).toBe('INSERT INTO qs_item (a, b) VALUES (?, ?), (?, ?)');
    const db = new FakeDb();
    const rows = Array.from({ length: 5000 }, (_, i) => [i + 1, `n${i}`, null, '2026-01-02'] as const);
    await new Db2QuerySession(db, 1, { planBase: 0, queryTimeoutSec: 0 }, noSide).insertRows('qs_item', ['id', 'name', 'price', 'day'], rows);
    expect(db.log[0]).toBe('BEGIN');
    expect(db.log.at(-1)).toBe('COMMIT');
    expect(db.params.slice(0, 5).map((p) => p.length)).toEqual(Array(5).fill(4000));
    for (const p of db.params) expect(p.length).toBeLessThanOrEqual(DB2_MAX_PARAMS);
    expect(db.params[0]!.slice(0, 4)).toEqual([1, 'n0', null, '2026-01-02']);
  });

  it('insertRows rolls back on a failure; refuses bad names and rows before sending anything', async () => {
    const db = new FakeDb();
    db.failOn = /^INSERT/;
    const s = new Db2QuerySession(db, 1, { planBase: 0, queryTimeoutSec: 0 }, noSide);
    await expect(s.insertRows('t', ['a'], [[1]])).rejects.toThrow(/SQL0803N/);
    expect(db.log.at(-1)).toBe('ROLLBACK');
    const d = new FakeDb();
    const t = new Db2QuerySession(d, 1, { planBase: 0, queryTimeoutSec: 0 }, noSide);
    await expect(t.insertRows('bad name', ['a'], [[1]])).rejects.toThrow(/table must be an ordinary Db2 name/);
    await expect(t.insertRows('t', ['a', 'b'], [[1]])).rejects.toThrow(/row 0 has 1 values for 2 columns/);
    expect(d.log).toEqual([]);
  });

  it('query prepares the timed statement; exec sends one statement; cancel finds and cancels the activity', async () => {
    const db = new FakeDb();
    const side = new FakeDb();
    side.answer = (sql) => (sql.includes('MON_GET_ACTIVITY') ? [{ UOW_ID: 5, ACTIVITY_ID: 1 }] : []);
    const s = new Db2QuerySession(db, 77, { planBase: 0, queryTimeoutSec: 2 }, async () => side);
    expect((await s.query(q('SELECT 1, d FROM t;'), { fetch: true })).data).toEqual([[1, '2026-01-02']]);
    expect(db.log[0]).toBe('PREPARE SELECT 1, d FROM t');
    await s.exec('CREATE TABLE t (a INT)@');
    expect(db.log.at(-1)).toBe('CREATE TABLE t (a INT)');
    await s.cancel();
    expect(side.log.at(-1)).toBe('CALL WLM_CANCEL_ACTIVITY(?, ?, ?)');
    expect(side.params.at(-1)).toEqual([77, 5, 1]);
  });
});

/**
 * Live, only when SLEDGE_DB2_URL names a server (as the driver's other
 * live tests): a table QS_ITEM_DB2 is created in the user's schema and dropped.
 */
const url = process.env['SLEDGE_DB2_URL'];
describe.skipIf(!url)('Db2 query session (live, SLEDGE_DB2_URL)', () => {
  const target = (url ? parseDb2Url(url) : undefined) as Db2Target;
  let s: QuerySession;

  beforeAll(async () => {
    s = await driver.openQuerySession!(target, { name: 'chbench-1', dop: 1, queryTimeoutSec: 0, log: () => undefined });
    await s.exec('DROP TABLE qs_item_db2').catch(() => undefined);
  });

  afterAll(async () => {
    await s?.exec('DROP TABLE qs_item_db2').catch(() => undefined);
    await s?.close();
  });

  it('exec, insertRows 5,000 rows, query counts and fetches them; the session is named', async () => {
    await s.exec('CREATE TABLE qs_item_db2 (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(20), price DECIMAL(8,2), day DATE)');
    const data = Array.from({ length: 5000 }, (_, i) => [i + 1, `name ${i + 1}`, i % 3 === 0 ? null : (i * 1.5).toFixed(2), '2026-01-0' + ((i % 9) + 1)]);
    await s.insertRows('qs_item_db2', ['id', 'name', 'price', 'day'], data);
    expect((await s.query(q('SELECT count(*), count(price) FROM qs_item_db2'), { fetch: true })).data).toEqual([[5000, 3333]]);
    expect((await s.query(q('SELECT id, day FROM qs_item_db2 WHERE id = 2'), { fetch: true })).data).toEqual([[2, '2026-01-02']]);
    expect((await s.query(q('SELECT CURRENT CLIENT_APPLNAME FROM sysibm.sysdummy1'), { fetch: true })).data).toEqual([['sledge-chbench-1']]);
  });

  it('the query timeout stops a running query, classified as a timeout', async () => {
    const t = await driver.openQuerySession!(target, { name: 'chbench-2', dop: 1, queryTimeoutSec: 1, log: () => undefined });
    try {
      const slow = 'SELECT count(*) FROM syscat.columns a, syscat.columns b, syscat.columns c';
      const e = await t.query(q(slow)).then(() => undefined, (x: unknown) => x);
      expect(driver.classifyError(e).kind).toBe('timeout');
    } finally {
      await t.close();
    }
  });
});
