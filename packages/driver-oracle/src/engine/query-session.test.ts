import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuerySession } from '@sledge/core';
import type { OracleTarget } from '@sledge/protocol';
import { driver } from '../driver.js';
import type { OraBindDef, OraResult } from './library.js';
import { INSERT_BATCH_ROWS, ORACLE_SESSION_SQL, OracleQuerySession, oracleSessionSql, type StreamLib, type StreamOraConnection } from './query-session.js';
import { parseOracleUrl } from './url.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const q = (sql: string) => ({ query: 4, statements: [{ sql, timed: true }] });
const LIB: StreamLib = { OUT_FORMAT_ARRAY: 4001, NUMBER: 'NUMBER', STRING: 'STRING' };

/** A fake node-oracledb connection: records calls; qs_item has (id NUMBER, name VARCHAR2(20), day DATE). */
class FakeOra implements StreamOraConnection {
  log: string[] = [];
  binds: unknown[] = [];
  many: Array<{ sql: string; rows: unknown[][]; defs: OraBindDef[] }> = [];
  breaks = 0;
  failMany = false;
  callTimeout?: number;
  clientId?: string;
  module?: string;
  async execute(sql: string, binds?: unknown): Promise<OraResult> {
    this.log.push(oneLine(sql));
    this.binds.push(binds);
    if (sql.includes('user_tab_columns')) {
      return (binds as { table_name: string }).table_name === 'qs_item' ? { rows: [['id', 'NUMBER', 22, 'N'], ['name', 'VARCHAR2', 20, 'Y'], ['day', 'DATE', 7, 'Y']] } : { rows: [] };
    }
    if (sql.includes('DBMS_XPLAN')) return { rows: [['Plan hash value: 1']] };
    return { rows: [[1, new Date(2026, 0, 2)]] };
  }
  async executeMany(sql: string, rows: unknown[][], o: { bindDefs: OraBindDef[] }): Promise<{ rowsAffected?: number }> {
    if (this.failMany) throw Object.assign(new Error('ORA-00001: unique constraint violated'), { code: 'ORA-00001' });
    this.log.push('MANY');
    this.many.push({ sql, rows, defs: o.bindDefs });
    return { rowsAffected: rows.length };
  }
  commit = async () => void this.log.push('COMMIT');
  rollback = async () => void this.log.push('ROLLBACK');
  break = async () => void this.breaks++;
  close = async () => void this.log.push('CLOSE');
}

describe('Oracle query session (offline)', () => {
  it('engine/session.sql defines exactly the statements the session sends', () => {
    expect(Object.keys(oracleSessionSql.file('session'))).toEqual([...ORACLE_SESSION_SQL.session]);
    expect(oracleSessionSql.get('session', 'session_parallel', { dop: 8 })).toBe('ALTER SESSION FORCE PARALLEL QUERY PARALLEL 8');
    expect(oracleSessionSql.get('session', 'explain')).toBe("EXPLAIN PLAN SET STATEMENT_ID = '{{id}}' FOR\n{{sql}}");
  });

  it('setup names the session (MODULE, CLIENT_IDENTIFIER), sets callTimeout and FORCE PARALLEL QUERY', async () => {
    const c = new FakeOra();
    await OracleQuerySession.setup(c, { name: 'sledge-chbench-2', dop: 4, queryTimeoutSec: 30 });
    expect([c.module, c.clientId, c.callTimeout]).toEqual(['sledge-chbench-2', 'sledge-chbench-2', 30000]);
    expect(c.log).toEqual(['ALTER SESSION FORCE PARALLEL QUERY PARALLEL 4']);
  });

  it('insertRows: bind types from the table, executeMany in 5000-row calls, one commit', async () => {
    const c = new FakeOra();
    const rows = Array.from({ length: 12000 }, (_, i) => [i + 1, `n${i}`, '2026-01-02'] as const);
    await new OracleQuerySession(c, LIB, 'sledge-chbench-1').insertRows('qs_item', ['id', 'name', 'day'], rows);
    expect(c.log).toEqual([expect.stringContaining('FROM user_tab_columns'), 'MANY', 'MANY', 'MANY', 'COMMIT']);
    expect(c.many.map((m) => m.rows.length)).toEqual([INSERT_BATCH_ROWS, INSERT_BATCH_ROWS, 2000]);
    expect(c.many[0]!.sql).toBe("INSERT INTO qs_item (id, name, day) VALUES (:1, :2, TO_DATE(:3, 'YYYY-MM-DD HH24:MI:SS'))");
    expect(c.many[0]!.defs).toEqual([{ type: 'NUMBER' }, { type: 'STRING', maxSize: 20 }, { type: 'STRING', maxSize: 19 }]);
  });

  it('insertRows rolls back on a failure; refuses unknown tables, columns and bad names before inserting', async () => {
    const c = new FakeOra();
    c.failMany = true;
    const s = new OracleQuerySession(c, LIB, 'x');
    await expect(s.insertRows('qs_item', ['id'], [[1]])).rejects.toThrow(/ORA-00001/);
    expect(c.log.at(-1)).toBe('ROLLBACK');
    await expect(s.insertRows('nope', ['id'], [[1]])).rejects.toThrow(/table nope does not exist/);
    await expect(s.insertRows('qs_item', ['zz'], [[1]])).rejects.toThrow(/has no column zz/);
    await expect(s.insertRows('qs item', ['id'], [[1]])).rejects.toThrow(/table must be an unquoted Oracle name/);
    await expect(s.insertRows('qs_item', ['id', 'name'], [[1]])).rejects.toThrow(/row 0 has 1 values for 2 columns/);
  });

  it('query returns DATE as text; explain under <name>-q<n>; exec commits; cancel breaks the call', async () => {
    const c = new FakeOra();
    const s = new OracleQuerySession(c, LIB, 'sledge-chbench-1');
    expect((await s.query(q('SELECT 1, d FROM dual;'), { fetch: true })).data).toEqual([[1, '2026-01-02']]);
    expect(c.log[0]).toBe('SELECT 1, d FROM dual');
    expect(await s.explain(q('SELECT 1 FROM dual'))).toBe('Plan hash value: 1');
    expect(c.log[1]).toBe("EXPLAIN PLAN SET STATEMENT_ID = 'sledge-chbench-1-q4' FOR SELECT 1 FROM dual");
    await s.exec('CREATE TABLE t (a NUMBER);');
    expect(c.log.at(-1)).toBe('CREATE TABLE t (a NUMBER)');
    await s.cancel();
    expect(c.breaks).toBe(1);
  });
});

/**
 * Live, only when SLEDGE_ORACLE_URL names a server (as the driver's other
 * live tests): the URL's user must exist; a table QS_ITEM_ORA is created in
 * its schema and dropped.
 */
const url = process.env['SLEDGE_ORACLE_URL'];
describe.skipIf(!url)('Oracle query session (live, SLEDGE_ORACLE_URL)', () => {
  const target = (url ? parseOracleUrl(url) : undefined) as OracleTarget;
  let s: QuerySession;
  const drop = "BEGIN EXECUTE IMMEDIATE 'DROP TABLE qs_item_ora PURGE'; EXCEPTION WHEN OTHERS THEN IF SQLCODE != -942 THEN RAISE; END IF; END;";

  beforeAll(async () => {
    s = await driver.openQuerySession!(target, { name: 'chbench-1', dop: 1, queryTimeoutSec: 0, log: () => undefined });
    await s.exec(drop);
  });

  afterAll(async () => {
    await s?.exec(drop).catch(() => undefined);
    await s?.close();
  });

  it('exec, insertRows 5,000 rows, query counts and fetches them; the session is named', async () => {
    await s.exec('CREATE TABLE qs_item_ora (id NUMBER PRIMARY KEY, name VARCHAR2(20), price NUMBER(8,2), day DATE)');
    const data = Array.from({ length: 5000 }, (_, i) => [i + 1, `name ${i + 1}`, i % 3 === 0 ? null : (i * 1.5).toFixed(2), '2026-01-0' + ((i % 9) + 1)]);
    await s.insertRows('qs_item_ora', ['id', 'name', 'price', 'day'], data);
    expect((await s.query(q('SELECT count(*), count(price) FROM qs_item_ora'), { fetch: true })).data).toEqual([[5000, 3333]]);
    expect((await s.query(q('SELECT id, day FROM qs_item_ora WHERE id = 2'), { fetch: true })).data).toEqual([[2, '2026-01-02']]);
    expect((await s.query(q("SELECT SYS_CONTEXT('USERENV', 'MODULE') FROM dual"), { fetch: true })).data).toEqual([['sledge-chbench-1']]);
    expect(await s.explain(q('SELECT * FROM qs_item_ora WHERE id = 7'))).toMatch(/INDEX UNIQUE SCAN/);
  });

  it('the call timeout and cancel() stop a running query, classified as a timeout', async () => {
    const slow = 'SELECT count(*) FROM all_objects a, all_objects b, all_objects c';
    const t = await driver.openQuerySession!(target, { name: 'chbench-2', dop: 1, queryTimeoutSec: 1, log: () => undefined });
    try {
      const e = await t.query(q(slow)).then(() => undefined, (x: unknown) => x);
      expect(driver.classifyError(e).kind).toBe('timeout');
    } finally {
      await t.close();
    }
    const running = s.query(q(slow)).then(() => undefined, (x: unknown) => x);
    await new Promise((r) => setTimeout(r, 500));
    await s.cancel();
    expect(driver.classifyError(await running).kind).toBe('timeout');
  });
});
