import { describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, fillQuery, parseNamedSql, type TprochNewOrder, type TprochQueryText, type Value } from '@sledge/core';
import { Db2Target, TPROCH_TABLES, validate } from '@sledge/protocol';
import { sqlText } from '@sledge/sql';
import type { Row } from '../engine/connection.js';
import type { IbmDatabase, IbmParam } from '../engine/library.js';
import { Db2TprochAdmin, tprochSchema, type AdminConn } from './admin.js';
import { Db2TprochLoader, type LoaderConn } from './loader.js';
import { insertStatements, literal, renderPlan } from './rows.js';
import { Db2TprochStream, FETCH_ARRAY, SQL_ATTR_QUERY_TIMEOUT, sendable, type IbmResult, type IbmStatement, type StreamDb } from './stream.js';

const FIXTURE: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'BRAZIL', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '3', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

const target = validate(Db2Target, { engine: 'db2', user: 'tpch', database: 'TPCH' });
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const db2Error = (state: string) => Object.assign(new Error(`[IBM][CLI Driver][DB2/LINUXX8664] SQL0204N  simulated  SQLSTATE=${state}`), { sqlstate: state });

function adminWith(answer: (sql: string, params: readonly IbmParam[]) => Row[]) {
  const log: Array<{ sql: string; params: readonly IbmParam[] }> = [];
  const conn: AdminConn = {
    query: async (sql: string, params: IbmParam[] = []) => {
      log.push({ sql: oneLine(sql), params });
      return answer(sql, params);
    },
    exec: async (sql: string) => {
      log.push({ sql: oneLine(sql), params: [] });
      answer(sql, []);
    },
    close: async () => undefined,
  };
  return { admin: new Db2TprochAdmin(target, () => undefined, async () => conn), log };
}

describe('Db2 TPROC-H admin (fake connection)', () => {
  it('the schema is the user name, upper case, validated', () => {
    expect(tprochSchema(target)).toBe('TPCH');
    expect(() => tprochSchema({ ...target, user: 'a-b' })).toThrow(/target.user/);
  });

  it('createSchema: SET SCHEMA, no SUPPLIER yet, CREATE SCHEMA when missing, then the eight tables', async () => {
    const { admin, log } = adminWith(() => [{ n: 0 }]);
    await admin.createSchema({ scaleFactor: 1, buildVus: 1 });
    expect(log.slice(0, 4)).toEqual([
      { sql: 'SET SCHEMA TPCH', params: [] },
      { sql: "SELECT COUNT(*) AS n FROM syscat.tables WHERE tabschema = UPPER(?) AND tabname = 'SUPPLIER'", params: ['TPCH'] },
      { sql: 'SELECT COUNT(*) AS n FROM syscat.schemata WHERE schemaname = UPPER(?)', params: ['TPCH'] },
      { sql: 'CREATE SCHEMA TPCH', params: [] },
    ]);
    expect(log.slice(4).map((l) => /CREATE TABLE (\w+)/.exec(l.sql)![1])).toEqual([...TPROCH_TABLES]);
  });

  it('refuses a schema that holds the tables; schemaState reads the SF; a missing database is no schema', async () => {
    const { admin, log } = adminWith((sql) => [{ n: sql.includes('FROM supplier') ? 10000 : 1 }]);
    await expect(admin.createSchema({ scaleFactor: 1, buildVus: 1 })).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS' });
    expect(log.some((l) => l.sql.startsWith('CREATE'))).toBe(false);
    expect(await admin.schemaState()).toEqual({ exists: true, scaleFactor: 1 });
    const { SledgeError } = await import('@sledge/protocol');
    const missing = new Db2TprochAdmin(target, () => undefined, async () => {
      throw new SledgeError('SLEDGE_E_CONNECT', 'database TPCH not found', { field: 'target.database' });
    });
    expect(await missing.schemaState()).toEqual({ exists: false, scaleFactor: 0 });
    await missing.dropSchema();
  });

  it('finishSchema: keys in file order, then RUNSTATS per table through ADMIN_CMD', async () => {
    const { admin, log } = adminWith(() => []);
    const steps: string[] = [];
    await admin.finishSchema({ scaleFactor: 1, buildVus: 1 }, (s) => steps.push(s));
    expect(steps).toEqual(['primary keys, foreign keys and their indexes', 'statistics']);
    const keys = Object.values(parseNamedSql(sqlText('db2', 'tproch', 'keys.sql'))).map(oneLine);
    expect(log.slice(1, 1 + keys.length).map((l) => l.sql)).toEqual(keys);
    expect(log.slice(1 + keys.length).map((l) => /"TPCH"\."(\w+)"/.exec(l.sql)![1])).toEqual(TPROCH_TABLES.map((t) => t.toUpperCase()));
  });

  it('dropSchema drops the eight tables, skipping ones already gone (42704), failing on anything else', async () => {
    const { admin, log } = adminWith((sql) => {
      if (sql === 'DROP TABLE partsupp') throw db2Error('42704');
      return [];
    });
    await admin.dropSchema();
    expect(log.slice(1).map((l) => l.sql)).toEqual(['lineitem', 'orders', 'partsupp', 'part', 'customer', 'supplier', 'nation', 'region'].map((t) => `DROP TABLE ${t}`));
    const bad = adminWith((sql) => {
      if (sql.startsWith('DROP')) throw db2Error('42501');
      return [];
    });
    await expect(bad.admin.dropSchema()).rejects.toMatchObject({ code: 'SLEDGE_E_DB' });
  });
});

const ORDER: Value[] = [7, 1, 'O', '173665.47', '1996-01-02', '5-LOW', 'Clerk#000000951', 0, "it's furious"];
const LINE = (n: number): Value[] => [7, 155190, 7706, n, '17', '21168.23', '0.04', '0.02', 'N', 'O', '1996-03-13', '1996-02-12', '1996-03-22', 'DELIVER IN PERSON', 'TRUCK', 'egular courts above the'];

function columnTypes(table: string): Row[] {
  const ddl = parseNamedSql(sqlText('db2', 'tproch', 'tables.sql'))[table]!;
  return [...ddl.matchAll(/^\s+([a-z_]+)\s+(\w+)/gm)].map((m) => ({ name: m[1], type_name: m[2] === 'CHAR' ? 'CHARACTER' : m[2] }));
}

describe('Db2 TPROC-H loader (fake connection)', () => {
  it('multi-row INSERT literals per unit in one transaction, dates through DATE()', async () => {
    const log: string[] = [];
    const conn: LoaderConn = {
      query: async (_sql: string, params: IbmParam[] = []) => {
        log.push(`types ${String(params[0])}.${String(params[1])}`);
        return columnTypes(String(params[1]));
      },
      exec: async (sql: string) => void log.push(sql),
      begin: async () => void log.push('BEGIN'),
      commit: async () => void log.push('COMMIT'),
      rollback: async () => void log.push('ROLLBACK'),
      close: async () => undefined,
    };
    const loader = new Db2TprochLoader(conn, 'TPCH', () => undefined, undefined, 2);
    await loader.load([
      { table: 'orders', rows: 1, data: [ORDER] },
      { table: 'lineitem', rows: 3, data: [1, 2, 3].map(LINE) },
    ]);
    expect(log.map((l) => l.split('\n')[0])).toEqual([
      'types TPCH.orders',
      'types TPCH.lineitem',
      'BEGIN',
      `INSERT INTO orders (${TPROCH_COLUMNS.orders.join(', ')}) VALUES`,
      `INSERT INTO lineitem (${TPROCH_COLUMNS.lineitem.join(', ')}) VALUES`,
      `INSERT INTO lineitem (${TPROCH_COLUMNS.lineitem.join(', ')}) VALUES`,
      'COMMIT',
    ]);
    expect(log[3]!.split('\n')[1]).toBe("(7, 1, 'O', 173665.47, DATE('1996-01-02'), '5-LOW', 'Clerk#000000951', 0, 'it''s furious')");
    expect(log[4]!.split('\n')).toHaveLength(3);
  });

  it('literals refuse what is not a number or a date', () => {
    expect(literal('12.50', 'number')).toBe('12.50');
    expect(literal(null, 'string')).toBe('NULL');
    expect(() => literal('1e3; DROP', 'number')).toThrow(/not a number/);
    expect(() => literal('1996-1-2', 'date')).toThrow(/not a date/);
    expect(insertStatements('region', columnTypes('region').map((r) => ({ name: String(r['name']), typeName: String(r['type_name']) })), [[0, 'AFRICA', 'x']])).toEqual([
      "INSERT INTO region (r_regionkey, r_name, r_comment) VALUES\n(0, 'AFRICA', 'x')",
    ]);
  });
});

/** A fake ibm_db Database: records statements, prepared statements with their attributes, transactions. */
class FakeDb implements StreamDb {
  connected = true;
  log: string[] = [];
  params: IbmParam[][] = [];
  attrs: Array<[number, number]> = [];
  fetchModes: number[] = [];
  failOn: RegExp | undefined;
  answer: (sql: string) => unknown[] = () => [];
  async query(sql: string, params: IbmParam[] = []): Promise<unknown> {
    this.log.push(oneLine(sql));
    this.params.push(params);
    if (this.failOn?.test(sql)) throw db2Error('23503');
    return this.answer(sql);
  }
  async prepare(sql: string): Promise<IbmStatement> {
    this.log.push(`PREPARE ${oneLine(sql)}`);
    const result: IbmResult = {
      fetchAll: async (o) => {
        this.fetchModes.push(o.fetchMode);
        return [[1, 'a'], [2, 'b']];
      },
      close: async () => this.log.push('RESULT CLOSE'),
    };
    return {
      setAttrSync: (a: number, v: number) => this.attrs.push([a, v]),
      execute: async () => result,
      close: async () => this.log.push('STMT CLOSE'),
    };
  }
  beginTransaction = async () => this.log.push('BEGIN');
  commitTransaction = async () => this.log.push('COMMIT');
  rollbackTransaction = async () => this.log.push('ROLLBACK');
  close = async () => {
    this.connected = false;
    this.log.push('CLOSE');
  };
}

const queriesSql = parseNamedSql(sqlText('db2', 'tproch', 'queries.sql'));
const queryText = (q: number): TprochQueryText => ({ query: q, statements: [{ sql: fillQuery(queriesSql[`q${q}`]!, FIXTURE), timed: true }] });
const newOrders = (n: number): TprochNewOrder[] => Array.from({ length: n }, (_, i) => ({ order: [100 + i, ...ORDER.slice(1)], lineitems: [LINE(1), LINE(2)].map((l) => [100 + i, ...l.slice(1)]) }));
const noSide = async (): Promise<IbmDatabase> => {
  throw new Error('no side connection expected');
};

describe('Db2 TPROC-H stream (fake connection)', () => {
  it('init: SET CURRENT DEGREE with the DOP, then the application handle', async () => {
    const db = new FakeDb();
    db.answer = (sql) => (sql.includes('MON_GET_APPLICATION_HANDLE') ? [{ HANDLE: 4711 }] : []);
    await Db2TprochStream.init(db, { stream: 1, dop: 4, queryTimeoutSec: 0, log: () => undefined }, noSide);
    expect(db.log).toEqual(["SET CURRENT DEGREE '4'", 'SELECT MON_GET_APPLICATION_HANDLE() AS handle FROM sysibm.sysdummy1']);
  });

  it('query: prepared timed statement with SQL_ATTR_QUERY_TIMEOUT, rows fetched as arrays, handles closed', async () => {
    const db = new FakeDb();
    const s = new Db2TprochStream(db, 7, { stream: 1, queryTimeoutSec: 30 }, noSide);
    const r = await s.query(queryText(18), { fetch: true });
    expect(r).toMatchObject({ rows: 2, data: [[1, 'a'], [2, 'b']] });
    expect(db.log[0]).toMatch(/^PREPARE SELECT c_name, .* FETCH FIRST 100 ROWS ONLY$/);
    expect(db.log.slice(1)).toEqual(['RESULT CLOSE', 'STMT CLOSE']);
    expect(db.attrs).toEqual([[SQL_ATTR_QUERY_TIMEOUT, 30]]);
    expect(db.fetchModes).toEqual([FETCH_ARRAY]);
    const none = new FakeDb();
    await new Db2TprochStream(none, 7, { stream: 1, queryTimeoutSec: 0 }, noSide).query(queryText(1));
    expect(none.attrs).toEqual([]);
    expect(sendable('SELECT 1 FROM sysibm.sysdummy1@')).toBe('SELECT 1 FROM sysibm.sysdummy1');
  });

  it('cancel: a side connection finds the executing activity and cancels it with WLM_CANCEL_ACTIVITY', async () => {
    const side = new FakeDb();
    side.answer = (sql) => (sql.includes('MON_GET_ACTIVITY') ? [{ UOW_ID: 3, ACTIVITY_ID: 9 }] : []);
    let opened = 0;
    const s = new Db2TprochStream(new FakeDb(), 4711, { stream: 1, queryTimeoutSec: 0 }, async () => {
      opened++;
      return side;
    });
    await s.cancel();
    await s.cancel();
    expect(opened).toBe(1);
    expect(side.log[1]).toBe('CALL WLM_CANCEL_ACTIVITY(?, ?, ?)');
    expect(side.params[0]).toEqual([4711]);
    expect(side.params[1]).toEqual([4711, 3, 9]);
    side.answer = () => [];
    await s.cancel();
    expect(side.log.filter((l) => l.startsWith('CALL'))).toHaveLength(2);
    await s.close();
    expect(side.log.at(-1)).toBe('CLOSE');
  });

  it('explain: explain tables created when missing, EXPLAIN PLAN, the plan read back as a tree, the instance removed', async () => {
    const db = new FakeDb();
    db.answer = (sql) => {
      if (sql.includes("tabname = 'EXPLAIN_INSTANCE'")) return [{ N: 0 }];
      if (sql.includes('FROM explain_statement')) return [{ EXPLAIN_TIME: '2026-11-23-23.00.00.000000' }];
      if (sql.includes('FROM explain_operator')) return [{ ID: 1, TYPE: 'RETURN', COST: 120.5 }, { ID: 2, TYPE: 'GRPBY ', COST: 120 }, { ID: 3, TYPE: 'TBSCAN', COST: 100 }];
      if (sql.includes('FROM explain_stream'))
        return [
          { SOURCE_TYPE: 'O', SOURCE_ID: 2, TARGET_ID: 1, ROW_COUNT: 4, OBJECT_NAME: null },
          { SOURCE_TYPE: 'O', SOURCE_ID: 3, TARGET_ID: 2, ROW_COUNT: 5900, OBJECT_NAME: null },
          { SOURCE_TYPE: 'D', SOURCE_ID: -1, TARGET_ID: 3, ROW_COUNT: 6001215, OBJECT_NAME: 'LINEITEM' },
        ];
      return [];
    };
    const plan = await new Db2TprochStream(db, 7, { stream: 2, queryTimeoutSec: 0 }, noSide).explain(queryText(1));
    expect(plan).toBe('RETURN (1) cost=120.50\n  GRPBY (2) rows=4 cost=120\n    TBSCAN (3) rows=5900 cost=100\n      LINEITEM rows=6001215');
    expect(db.log[1]).toBe("CALL SYSPROC.SYSINSTALLOBJECTS('EXPLAIN', 'C', CAST(NULL AS VARCHAR(128)), CURRENT SCHEMA)");
    expect(db.log[2]).toMatch(/^EXPLAIN PLAN SET QUERYNO = 201 FOR SELECT l_returnflag/);
    expect(db.params[3]).toEqual([201]);
    expect(db.log.at(-1)).toBe('DELETE FROM explain_instance WHERE explain_time = ?');
    expect(renderPlan([], [])).toBe('');
  });

  it('RF1: order then lineitems with parameter markers, a commit every commitEvery orders; RF2 rolls back on failure', async () => {
    const db = new FakeDb();
    const s = new Db2TprochStream(db, 7, { stream: 3, queryTimeoutSec: 0 }, noSide);
    await s.newSales(newOrders(3), { trickleMs: 0, commitEvery: 2, stopped: () => false });
    const shape = db.log.map((l) => (l.startsWith('INSERT INTO orders') ? 'O' : l.startsWith('INSERT INTO lineitem') ? 'L' : l));
    expect(shape).toEqual(['BEGIN', 'O', 'L', 'L', 'O', 'L', 'L', 'COMMIT', 'BEGIN', 'O', 'L', 'L', 'COMMIT']);
    expect(db.params[0]).toEqual([100, ...ORDER.slice(1)]);
    const f = new FakeDb();
    f.failOn = /^DELETE FROM orders/;
    await expect(new Db2TprochStream(f, 7, { stream: 3, queryTimeoutSec: 0 }, noSide).oldSales([1, 2], { trickleMs: 0, commitEvery: 1, stopped: () => false })).rejects.toThrow(/23503/);
    expect(f.log).toEqual(['BEGIN', 'DELETE FROM lineitem WHERE l_orderkey = ?', 'DELETE FROM orders WHERE o_orderkey = ?', 'ROLLBACK']);
  });
});
