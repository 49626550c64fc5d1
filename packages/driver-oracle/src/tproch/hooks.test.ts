import { describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, fillQuery, parseNamedSql, type TprochNewOrder, type TprochQueryText, type Value } from '@sledge/core';
import { OracleTarget, TPROCH_TABLES, validate } from '@sledge/protocol';
import { sqlText } from '@sledge/sql';
import type { Binds, Row } from '../engine/connection.js';
import type { OraBindDef, OraResult } from '../engine/library.js';
import { driver } from '../driver.js';
import { OracleTprochAdmin, type AdminConn } from './admin.js';
import { OracleTprochLoader, type LoaderConn } from './loader.js';
import { OracleTprochStream, sendable, type StreamLib, type StreamOraConnection } from './stream.js';

const FIXTURE: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'BRAZIL', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '3', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

const target = validate(OracleTarget, { engine: 'oracle', user: 'tpch', password: 'tpch_pw' });
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const oraError = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });

type Entry = { role: string; sql: string; binds: unknown };

function adminWith(answer: (sql: string, binds: unknown, role: string) => Row[]) {
  const log: Entry[] = [];
  const opened: string[] = [];
  const admin = new OracleTprochAdmin(
    target,
    () => undefined,
    async (role, clientId) => {
      opened.push(`${role}/${clientId}`);
      const conn: AdminConn = {
        query: async (sql: string, binds: Binds = {}) => {
          log.push({ role, sql: oneLine(sql), binds });
          return answer(sql, binds, role);
        },
        execute: async (sql: string, binds: Binds = {}) => {
          log.push({ role, sql: oneLine(sql), binds });
          answer(sql, binds, role);
          return {} as OraResult;
        },
        close: async () => undefined,
      };
      return conn;
    },
    undefined,
    1,
  );
  return { admin, log, opened };
}

describe('Oracle TPROC-H admin (fake connections)', () => {
  it('createSchema: the system user creates user, grants and quota; the TPROC-H user creates the eight tables', async () => {
    const { admin, log, opened } = adminWith((sql) => (sql.includes('dba_users') ? [{ n: 0 }] : []));
    await admin.createSchema({ scaleFactor: 1, buildVus: 1 });
    expect(opened).toEqual(['system/sledge-tproch-admin', 'user/sledge-tproch-monitor']);
    expect(log[0]).toEqual({ role: 'system', sql: 'SELECT COUNT(*) AS n FROM dba_users WHERE username = :username', binds: { username: 'TPCH' } });
    expect(log.slice(1, 4).map((l) => [l.role, l.sql])).toEqual([
      ['system', 'CREATE USER tpch IDENTIFIED BY "tpch_pw" DEFAULT TABLESPACE USERS TEMPORARY TABLESPACE TEMP'],
      ['system', 'GRANT CONNECT, RESOURCE TO tpch'],
      ['system', 'ALTER USER tpch QUOTA UNLIMITED ON USERS'],
    ]);
    expect(log.slice(4).map((l) => `${l.role} ${/CREATE TABLE (\w+)/.exec(l.sql)![1]}`)).toEqual(TPROCH_TABLES.map((t) => `user ${t}`));
  });

  it('refuses a user that already owns the tables (SLEDGE_E_SCHEMA_EXISTS); schemaState reads the SF', async () => {
    const { admin, log } = adminWith((sql) => (sql.includes('COUNT(*) AS n FROM supplier') ? [{ n: 100000 }] : [{ n: 1 }]));
    await expect(admin.createSchema({ scaleFactor: 1, buildVus: 1 })).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.user' });
    expect(log.some((l) => l.sql.startsWith('CREATE'))).toBe(false);
    expect(await admin.schemaState()).toEqual({ exists: true, scaleFactor: 10 });
    expect(await adminWith(() => [{ n: 0 }]).admin.schemaState()).toEqual({ exists: false, scaleFactor: 0 });
  });

  it('finishSchema: keys in file order, then GATHER_SCHEMA_STATS, all as the TPROC-H user', async () => {
    const { admin, log } = adminWith(() => []);
    const steps: string[] = [];
    await admin.finishSchema({ scaleFactor: 1, buildVus: 1 }, (s) => steps.push(s));
    expect(steps).toEqual(['primary keys, foreign keys and their indexes', 'statistics']);
    const keys = parseNamedSql(sqlText('oracle', 'tproch', 'keys.sql'));
    expect(log.slice(0, -1).map((l) => l.sql)).toEqual(Object.values(keys).map(oneLine));
    expect(log.at(-1)!.sql).toMatch(/^BEGIN DBMS_STATS\.GATHER_SCHEMA_STATS\(/);
    expect(log.every((l) => l.role === 'user')).toBe(true);
  });

  it('dropSchema kills the sessions and retries DROP USER while ORA-01940 says one is still connected', async () => {
    let drops = 0;
    const { admin, log } = adminWith((sql) => {
      if (sql.includes('dba_users')) return [{ n: 1 }];
      if (sql.startsWith('DROP USER') && ++drops < 3) throw oraError('ORA-01940');
      return [];
    });
    await admin.dropSchema();
    expect(log.filter((l) => l.sql.startsWith('BEGIN FOR s IN'))).toHaveLength(3);
    expect(log.at(-1)!.sql).toBe('DROP USER tpch CASCADE');
    const other = adminWith((sql) => {
      if (sql.includes('dba_users')) return [{ n: 1 }];
      if (sql.startsWith('DROP USER')) throw oraError('ORA-01031');
      return [];
    });
    await expect(other.admin.dropSchema()).rejects.toMatchObject({ code: 'SLEDGE_E_DB' });
    const none = adminWith(() => [{ n: 0 }]);
    await none.admin.dropSchema();
    expect(none.log.some((l) => l.sql.startsWith('DROP'))).toBe(false);
  });

  it('rowCounts counts the eight tables as the TPROC-H user', async () => {
    const { admin, log } = adminWith((sql) => [{ n: sql.includes('lineitem') ? 6 : 1 }]);
    expect((await admin.rowCounts()).lineitem).toBe(6);
    expect(log.map((l) => l.sql)).toEqual(TPROCH_TABLES.map((t) => `SELECT COUNT(*) AS n FROM ${t}`));
  });
});

/** user_tab_columns rows of a table as tables.sql declares it. */
function columnTypes(table: string): Row[] {
  const ddl = parseNamedSql(sqlText('oracle', 'tproch', 'tables.sql'))[table]!;
  return [...ddl.matchAll(/^\s+([a-z_]+)\s+(\w+)(?:\((\d+)(?:,(\d+))?\))?/gm)].map((m) => ({
    name: m[1],
    type_name: m[2],
    max_length: m[2] === 'NUMBER' ? 22 : m[2] === 'DATE' ? 7 : Number(m[3]),
    nullable: 'N',
  }));
}

const ORDER: Value[] = [7, 1, 'O', '173665.47', '1996-01-02', '5-LOW', 'Clerk#000000951', 0, 'nstructions sleep furiously among'];
const LINE = (n: number): Value[] => [7, 155190, 7706, n, '17', '21168.23', '0.04', '0.02', 'N', 'O', '1996-03-13', '1996-02-12', '1996-03-22', 'DELIVER IN PERSON', 'TRUCK', 'egular courts above the'];

describe('Oracle TPROC-H loader (fake connection)', () => {
  it('array DML in batches, numbers as numbers, dates through TO_DATE, one commit per unit', async () => {
    const calls: Array<{ sql: string; rows: unknown[][]; defs: OraBindDef[] }> = [];
    const log: string[] = [];
    const conn: LoaderConn = {
      lib: { NUMBER: 'NUMBER', STRING: 'STRING' },
      query: async (_sql: string, binds: Binds = {}) => {
        log.push('column_types');
        return columnTypes(String(binds['table_name']));
      },
      executeMany: async (sql: string, rows: unknown[][], defs: OraBindDef[]) => {
        log.push('executeMany');
        calls.push({ sql, rows, defs });
        return { rowsAffected: rows.length };
      },
      commit: async () => void log.push('commit'),
      rollback: async () => void log.push('rollback'),
      close: async () => undefined,
    };
    const loader = new OracleTprochLoader(conn, () => undefined, undefined, 2);
    await loader.load([
      { table: 'orders', rows: 1, data: [ORDER] },
      { table: 'lineitem', rows: 5, data: [1, 2, 3, 4, 5].map(LINE) },
    ]);
    expect(log).toEqual(['column_types', 'executeMany', 'column_types', 'executeMany', 'executeMany', 'executeMany', 'commit']);
    expect(calls[0]!.sql).toBe(
      "INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment) VALUES (:1, :2, :3, :4, TO_DATE(:5, 'YYYY-MM-DD'), :6, :7, :8, :9)",
    );
    expect(calls[0]!.rows[0]![3]).toBe(173665.47);
    expect(calls[0]!.rows[0]![4]).toBe('1996-01-02');
    expect(calls[0]!.defs[2]).toEqual({ type: 'STRING', maxSize: 1 });
    expect(calls[0]!.defs[4]).toEqual({ type: 'STRING', maxSize: 10 });
    expect(calls.slice(1).map((c) => c.rows.length)).toEqual([2, 2, 1]);
    expect(calls[1]!.sql.match(/:\d+/g)).toHaveLength(TPROCH_COLUMNS.lineitem.length);
  });

  it('rolls back and reports SLEDGE_E_DB on an error', async () => {
    const log: string[] = [];
    const conn: LoaderConn = {
      lib: { NUMBER: 'NUMBER', STRING: 'STRING' },
      query: async (_s: string, b: Binds = {}) => columnTypes(String(b['table_name'])),
      executeMany: async () => {
        throw oraError('ORA-00001');
      },
      commit: async () => void log.push('commit'),
      rollback: async () => void log.push('rollback'),
      close: async () => undefined,
    };
    await expect(new OracleTprochLoader(conn, () => undefined).load([{ table: 'orders', rows: 1, data: [ORDER] }])).rejects.toMatchObject({ code: 'SLEDGE_E_DB' });
    expect(log).toEqual(['rollback']);
  });
});

const LIB: StreamLib = { OUT_FORMAT_ARRAY: 4001, NUMBER: 'NUMBER', STRING: 'STRING' };

class FakeOra implements StreamOraConnection {
  log: string[] = [];
  binds: unknown[] = [];
  many: Array<{ rows: unknown[][]; defs: OraBindDef[] }> = [];
  options: unknown[] = [];
  breaks = 0;
  failOn: RegExp | undefined;
  callTimeout?: number;
  clientId?: string;
  module?: string;
  async execute(sql: string, binds?: unknown, options?: unknown): Promise<OraResult> {
    this.log.push(oneLine(sql));
    this.binds.push(binds);
    this.options.push(options);
    if (this.failOn?.test(sql)) throw oraError('ORA-00942');
    if (sql.includes('DBMS_XPLAN')) return { rows: [['Plan hash value: 1'], ['| 0 | SELECT STATEMENT |']] };
    return { rows: [[1, 'x'], [2, 'y'], [3, 'z']] };
  }
  async executeMany(sql: string, rows: unknown[][], o: { bindDefs: OraBindDef[] }): Promise<{ rowsAffected?: number }> {
    this.log.push(`MANY ${oneLine(sql).slice(0, 20)}`);
    this.many.push({ rows, defs: o.bindDefs });
    return { rowsAffected: rows.length };
  }
  commit = async () => void this.log.push('COMMIT');
  rollback = async () => void this.log.push('ROLLBACK');
  break = async () => void this.breaks++;
  close = async () => void this.log.push('CLOSE');
}

const queriesSql = parseNamedSql(sqlText('oracle', 'tproch', 'queries.sql'));
const queryText = (q: number): TprochQueryText => ({ query: q, statements: [{ sql: fillQuery(queriesSql[`q${q}`]!, FIXTURE), timed: true }] });
const newOrders = (n: number): TprochNewOrder[] =>
  Array.from({ length: n }, (_, i) => ({ order: [100 + i, ...ORDER.slice(1)], lineitems: [LINE(1), LINE(2), LINE(3)].map((l) => [100 + i, ...l.slice(1)]) }));

describe('Oracle TPROC-H stream (fake connection)', () => {
  it('init: tracing names, callTimeout from the query timeout, FORCE PARALLEL QUERY with the DOP', async () => {
    const c = new FakeOra();
    await OracleTprochStream.init(c, LIB, { stream: 2, dop: 6, queryTimeoutSec: 45, log: () => undefined });
    expect([c.module, c.clientId, c.callTimeout]).toEqual(['sledge-tproch-2', 'sledge-tproch-2', 45000]);
    expect(c.log).toEqual(['ALTER SESSION FORCE PARALLEL QUERY PARALLEL 6']);
    const d = new FakeOra();
    await OracleTprochStream.init(d, LIB, { stream: 0, dop: 1, queryTimeoutSec: 0, log: () => undefined });
    expect(d.callTimeout).toBe(0);
  });

  it('query: the timed statement without its terminator, rows as arrays; Q15 in one statement', async () => {
    const c = new FakeOra();
    const s = new OracleTprochStream(c, LIB, 1);
    const r = await s.query(queryText(15), { fetch: true });
    expect(r.rows).toBe(3);
    expect(r.data).toEqual([[1, 'x'], [2, 'y'], [3, 'z']]);
    expect(c.log[0]).toMatch(/^WITH revenue .* ORDER BY s_suppkey$/);
    expect(c.options[0]).toEqual({ outFormat: 4001 });
    expect(sendable('SELECT 1 FROM dual;\n-- note')).toBe('SELECT 1 FROM dual');
  });

  it('explain: EXPLAIN PLAN under a statement id, DBMS_XPLAN.DISPLAY, rows removed and committed', async () => {
    const c = new FakeOra();
    const plan = await new OracleTprochStream(c, LIB, 1).explain(queryText(3));
    expect(plan).toBe('Plan hash value: 1\n| 0 | SELECT STATEMENT |');
    expect(c.log[0]).toMatch(/^EXPLAIN PLAN SET STATEMENT_ID = 'sledge-1-q3' FOR SELECT l_orderkey, .* FETCH FIRST 10 ROWS ONLY$/);
    expect(c.log[1]).toContain("DBMS_XPLAN.DISPLAY('PLAN_TABLE', :id, 'TYPICAL')");
    expect(c.binds[1]).toEqual({ id: 'sledge-1-q3' });
    expect(c.log.slice(2)).toEqual(['DELETE FROM plan_table WHERE statement_id = :id', 'COMMIT']);
  });

  it('cancel breaks the running call', async () => {
    const c = new FakeOra();
    await new OracleTprochStream(c, LIB, 1).cancel();
    expect(c.breaks).toBe(1);
  });

  it('RF1: each transaction defers LINEITEM -> ORDERS, an order then its lineitems in one array DML, commit every commitEvery', async () => {
    const c = new FakeOra();
    await new OracleTprochStream(c, LIB, 1).newSales(newOrders(3), { trickleMs: 0, commitEvery: 2, stopped: () => false });
    const shape = c.log.map((l) => (l.startsWith('SET CONSTRAINT') ? 'D' : l.startsWith('INSERT INTO orders') ? 'O' : l.startsWith('MANY') ? 'L' : l));
    expect(shape).toEqual(['D', 'O', 'L', 'O', 'L', 'COMMIT', 'D', 'O', 'L', 'COMMIT']);
    expect(c.binds[1]).toEqual([100, 1, 'O', 173665.47, '1996-01-02', '5-LOW', 'Clerk#000000951', 0, 'nstructions sleep furiously among']);
    expect(c.many[0]!.rows).toHaveLength(3);
    expect(c.many[0]!.rows[1]![4]).toBe(17);
    expect(c.many[0]!.defs[13]).toEqual({ type: 'STRING', maxSize: 25 });
  });

  it('RF2: lineitems then the order by key; a failure rolls back', async () => {
    const c = new FakeOra();
    await new OracleTprochStream(c, LIB, 1).oldSales([5, 6], { trickleMs: 0, commitEvery: 1000, stopped: () => false });
    expect(c.log).toEqual(['DELETE FROM lineitem WHERE l_orderkey = :orderkey', 'DELETE FROM orders WHERE o_orderkey = :orderkey', 'DELETE FROM lineitem WHERE l_orderkey = :orderkey', 'DELETE FROM orders WHERE o_orderkey = :orderkey', 'COMMIT']);
    expect(c.binds[0]).toEqual({ orderkey: 5 });
    const f = new FakeOra();
    f.failOn = /^DELETE FROM orders/;
    await expect(new OracleTprochStream(f, LIB, 1).oldSales([1], { trickleMs: 0, commitEvery: 10, stopped: () => false })).rejects.toThrow(/ORA-00942/);
    expect(f.log.at(-1)).toBe('ROLLBACK');
  });

  it('stops before the next order when asked', async () => {
    const c = new FakeOra();
    let n = 0;
    await new OracleTprochStream(c, LIB, 1).oldSales([1, 2, 3, 4], { trickleMs: 0, commitEvery: 1000, stopped: () => ++n > 2 });
    expect(c.log.filter((l) => l.startsWith('DELETE FROM orders'))).toHaveLength(2);
    expect(c.log.at(-1)).toBe('COMMIT');
  });

  it('is registered on the driver as workloads.tproch and validates the user before connecting', async () => {
    const h = driver.workloads.tproch!;
    expect(h.bulkFormat(target)).toBe('tuples');
    await expect(h.openAdmin({ ...target, user: 'no way' }, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.user' });
  });
});
