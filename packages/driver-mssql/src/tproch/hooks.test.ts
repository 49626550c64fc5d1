import { describe, expect, it } from 'vitest';
import { TPROCH_COLUMNS, fillQuery, parseNamedSql, type TprochNewOrder, type TprochQueryText, type Value } from '@sledge/core';
import { MssqlTarget, SledgeError, TPROCH_TABLES, validate } from '@sledge/protocol';
import { sqlText } from '@sledge/sql';
import type { BoundParam } from '../engine/params.js';
import { tedious } from '../engine/library.js';
import type { Row } from '../engine/connection.js';
import { driver } from '../driver.js';
import { MssqlTprochAdmin, type AdminConn } from './admin.js';
import { MssqlTprochLoader, type LoaderConn } from './loader.js';
import { MssqlTprochStream, sendable, streamOpenOptions, withMaxdop } from './stream.js';
import { streamConfig, type StreamConn } from '../engine/tds.js';
import type { TdsParam } from './columns.js';

/** Values for every query parameter (the shapes core's params module draws). */
const FIXTURE: Record<string, string> = {
  delta: '90', size: '15', type: 'BRASS', region: 'EUROPE', segment: 'BUILDING', date: '1995-03-15', discount: '0.06',
  quantity: '24', nation1: 'FRANCE', nation2: 'GERMANY', nation: 'BRAZIL', color: 'green', fraction: '0.0001000000',
  shipmode1: 'MAIL', shipmode2: 'SHIP', word1: 'special', word2: 'requests', stream: '3', brand: 'Brand#45',
  container: 'MED BOX', size1: '49', size2: '14', size3: '23', size4: '45', size5: '19', size6: '3', size7: '36', size8: '9',
  brand1: 'Brand#12', brand2: 'Brand#23', brand3: 'Brand#34', quantity1: '1', quantity2: '10', quantity3: '20',
  i1: '13', i2: '31', i3: '23', i4: '29', i5: '30', i6: '18', i7: '17',
};

const target = validate(MssqlTarget, { engine: 'mssql', database: 'tpch' });
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A fake tedious connection: records (database, sql, params), answers from a script by statement text. */
class FakeTds implements AdminConn {
  closed = false;
  constructor(
    readonly database: string,
    readonly log: Array<{ db: string; sql: string; params: readonly BoundParam[] }>,
    private readonly answer: (sql: string, params: readonly BoundParam[]) => Row[],
  ) {}
  async query(sql: string, params: readonly BoundParam[] = []): Promise<Row[]> {
    this.log.push({ db: this.database, sql: oneLine(sql), params });
    return this.answer(sql, params);
  }
  async exec(sql: string): Promise<void> {
    await this.query(sql);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

function adminWith(answer: (sql: string, params: readonly BoundParam[]) => Row[]) {
  const log: Array<{ db: string; sql: string; params: readonly BoundParam[] }> = [];
  const opened: string[] = [];
  const admin = new MssqlTprochAdmin(target, () => undefined, async (db, app) => {
    opened.push(`${db}/${app}`);
    return new FakeTds(db, log, answer);
  });
  return { admin, log, opened };
}

describe('SQL Server TPROC-H admin (fake connections)', () => {
  it('createSchema: CREATE DATABASE on master when missing, then the eight tables in tpch', async () => {
    let created = false;
    const { admin, log, opened } = adminWith((sql) => {
      if (sql.includes('DB_ID(@database)')) return [{ present: created ? 1 : 0 }];
      if (sql.startsWith('CREATE DATABASE')) created = true;
      if (sql.includes("OBJECT_ID(N'dbo.supplier'")) return [{ present: 0 }];
      return [];
    });
    await admin.createSchema({ scaleFactor: 1, buildVus: 2 });
    expect(opened).toEqual(['master/sledge-tproch-admin', 'tpch/sledge-tproch-monitor']);
    expect(log[0]!.params).toEqual([{ name: 'database', type: 'varchar', value: 'tpch', length: 128 }]);
    expect(log.filter((l) => l.db === 'master').map((l) => l.sql)).toContain('CREATE DATABASE [tpch]');
    const creates = log.filter((l) => l.sql.startsWith('CREATE TABLE')).map((l) => /CREATE TABLE dbo\.(\w+)/.exec(l.sql)![1]);
    expect(creates).toEqual([...TPROCH_TABLES]);
    expect(log.filter((l) => l.sql.startsWith('CREATE TABLE')).every((l) => l.db === 'tpch')).toBe(true);
    await admin.close();
  });

  it('createSchema refuses a database that already holds the tables (SLEDGE_E_SCHEMA_EXISTS), creating nothing', async () => {
    const { admin, log } = adminWith((sql) => (sql.includes('DB_ID') || sql.includes('OBJECT_ID') ? [{ present: 1 }] : []));
    await expect(admin.createSchema({ scaleFactor: 1, buildVus: 1 })).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.database' });
    expect(log.some((l) => l.sql.startsWith('CREATE'))).toBe(false);
  });

  it('schemaState: SF from count(supplier) / 10000; missing database or table = not there', async () => {
    expect(await adminWith(() => [{ present: 0 }]).admin.schemaState()).toEqual({ exists: false, scaleFactor: 0 });
    const { admin } = adminWith((sql) => (sql.includes('COUNT_BIG') ? [{ n: 1000 }] : [{ present: 1 }]));
    expect(await admin.schemaState()).toEqual({ exists: true, scaleFactor: 0.1 });
  });

  it('finishSchema: keys in file order, then UPDATE STATISTICS per table, reporting each group', async () => {
    const { admin, log } = adminWith(() => []);
    const steps: string[] = [];
    await admin.finishSchema({ scaleFactor: 1, buildVus: 1 }, (w) => steps.push(w));
    expect(steps).toEqual(['primary keys, foreign keys and their indexes', 'statistics']);
    const keys = Object.values(parseNamedSql(sqlText('mssql', 'tproch', 'keys.sql'))).map(oneLine);
    expect(log.slice(0, keys.length).map((l) => l.sql)).toEqual(keys);
    expect(log.slice(keys.length).map((l) => l.sql)).toEqual(TPROCH_TABLES.map((t) => `UPDATE STATISTICS dbo.${t} WITH FULLSCAN`));
  });

  it('rowCounts reads every table; dropSchema drops the database only when it exists', async () => {
    const { admin, log } = adminWith((sql) => (sql.includes('COUNT_BIG') ? [{ n: sql.includes('lineitem') ? 60 : 5 }] : [{ present: 1 }]));
    const counts = await admin.rowCounts();
    expect(counts.lineitem).toBe(60);
    expect(counts.region).toBe(5);
    await admin.dropSchema();
    expect(log.at(-1)!.sql).toContain('DROP DATABASE [tpch]');
    const gone = adminWith(() => [{ present: 0 }]);
    await gone.admin.dropSchema();
    expect(gone.log.some((l) => l.sql.includes('DROP'))).toBe(false);
  });

  it('wraps database errors as SLEDGE_E_DB naming the step', async () => {
    const { admin } = adminWith(() => {
      throw Object.assign(new Error('Login failed'), { number: 18456 });
    });
    await expect(admin.serverVersion()).rejects.toMatchObject({ code: 'SLEDGE_E_DB' });
  });
});

/** sys.columns rows of a table as tables.sql declares it. */
function columnTypes(table: string): Row[] {
  const ddl = parseNamedSql(sqlText('mssql', 'tproch', 'tables.sql'))[table]!;
  return [...ddl.matchAll(/^\s+([a-z_]+)\s+(\w+)(?:\((\d+)(?:,(\d+))?\))?/gm)].map((m) => ({
    name: m[1],
    type_name: m[2],
    max_length: m[2] === 'char' || m[2] === 'varchar' ? Number(m[3]) : m[2] === 'bigint' ? 8 : 4,
    precision: m[2] === 'decimal' ? Number(m[3]) : 0,
    scale: m[2] === 'decimal' ? Number(m[4]) : 0,
    is_nullable: false,
  }));
}

const ORDER: Value[] = [7, 1, 'O', '173665.47', '1996-01-02', '5-LOW', 'Clerk#000000951', 0, 'nstructions sleep furiously among'];
const LINE = (n: number): Value[] => [7, 155190, 7706, n, '17', '21168.23', '0.04', '0.02', 'N', 'O', '1996-03-13', '1996-02-12', '1996-03-22', 'DELIVER IN PERSON', 'TRUCK', 'egular courts above the'];

describe('SQL Server TPROC-H loader (fake connection)', () => {
  function fakeLoader(fail?: string) {
    const calls: string[] = [];
    const bulks: Array<{ table: string; columns: string[]; rows: unknown[][] }> = [];
    const conn: LoaderConn = {
      types: tedious().TYPES,
      query: async (sql, params = []) => {
        calls.push('column_types');
        return columnTypes(String(params[0]!.value).replace('dbo.', ''));
      },
      bulkLoad: async (table, columns, rows) => {
        if (fail && table === fail) throw Object.assign(new Error('Violation of PRIMARY KEY'), { number: 2627 });
        calls.push(`bulk ${table}`);
        bulks.push({ table, columns: columns.map((c) => c.name), rows: [...rows] });
        return rows.length;
      },
      begin: async () => void calls.push('begin'),
      commit: async () => void calls.push('commit'),
      rollback: async () => void calls.push('rollback'),
      close: async () => void calls.push('close'),
    };
    return { loader: new MssqlTprochLoader(conn, () => undefined), calls, bulks };
  }

  it('bulk-copies each unit in one transaction, columns in generator order, dates as Date values', async () => {
    const { loader, calls, bulks } = fakeLoader();
    await loader.load([
      { table: 'orders', rows: 1, data: [ORDER] },
      { table: 'lineitem', rows: 2, data: [LINE(1), LINE(2)] },
    ]);
    expect(calls).toEqual(['column_types', 'column_types', 'begin', 'bulk dbo.orders', 'bulk dbo.lineitem', 'commit']);
    expect(bulks[0]!.columns).toEqual([...TPROCH_COLUMNS.orders]);
    expect(bulks[1]!.columns).toEqual([...TPROCH_COLUMNS.lineitem]);
    expect(bulks[0]!.rows[0]![4]).toEqual(new Date('1996-01-02T00:00:00Z'));
    expect(bulks[1]!.rows[1]![3]).toBe(2);
    await loader.load([{ table: 'orders', rows: 1, data: [ORDER] }]);
    expect(calls.filter((c) => c === 'column_types')).toHaveLength(2); // types read once per table
  });

  it('rolls back and reports SLEDGE_E_DB when a table fails; refuses text formats', async () => {
    const { loader, calls } = fakeLoader('dbo.lineitem');
    await expect(loader.load([{ table: 'orders', rows: 1, data: [ORDER] }, { table: 'lineitem', rows: 1, data: [LINE(1)] }])).rejects.toMatchObject({ code: 'SLEDGE_E_DB' });
    expect(calls.slice(-1)).toEqual(['rollback']);
    await expect(loader.load([{ table: 'region', rows: 1, data: '0|AFRICA|x\n' }])).rejects.toThrow(/tuples/);
  });
});

class FakeStream implements StreamConn {
  log: string[] = [];
  params: Array<readonly TdsParam[]> = [];
  failOn: RegExp | undefined;
  cancelled = 0;
  async rows(sql: string, params: readonly TdsParam[] = []): Promise<unknown[][]> {
    this.log.push(oneLine(sql));
    this.params.push(params);
    if (this.failOn?.test(sql)) throw Object.assign(new Error('Invalid object name'), { number: 208 });
    if (sql.startsWith('SET SHOWPLAN')) return [];
    if (this.log.includes('SET SHOWPLAN_TEXT ON') && !this.log.includes('SET SHOWPLAN_TEXT OFF')) return [['  |--Stream Aggregate'], ['       |--Clustered Index Scan']];
    return [[1, 'a'], [2, 'b']];
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

const queriesSql = parseNamedSql(sqlText('mssql', 'tproch', 'queries.sql'));
function queryText(q: number): TprochQueryText {
  const names = q === 15 ? ['q15_view', 'q15', 'q15_drop'] : [`q${q}`];
  return { query: q, statements: names.map((n) => ({ sql: fillQuery(queriesSql[n]!, FIXTURE), timed: n === `q${q}` })) };
}

function newOrders(n: number): TprochNewOrder[] {
  return Array.from({ length: n }, (_, i) => ({ order: [100 + i, ...ORDER.slice(1)], lineitems: [LINE(1), LINE(2)].map((l) => [100 + i, ...l.slice(1)]) }));
}

describe('SQL Server TPROC-H stream (fake connection)', () => {
  it('runs the timed select with OPTION (MAXDOP n), Q15 around its view, dropping the view even when the select fails', async () => {
    const c = new FakeStream();
    const s = new MssqlTprochStream(c, 4);
    const r = await s.query(queryText(6), { fetch: true });
    expect(r.rows).toBe(2);
    expect(r.data).toEqual([[1, 'a'], [2, 'b']]);
    expect(r.ms).toBeGreaterThanOrEqual(0);
    expect(c.log[0]).toMatch(/^SELECT SUM\(l_extendedprice \* l_discount\) AS revenue .* AND l_quantity < 24 OPTION \(MAXDOP 4\)$/);
    c.log = [];
    const q15 = await s.query(queryText(15));
    expect(q15.data).toBeUndefined();
    expect(c.log.map((l) => l.slice(0, 30))).toEqual(['CREATE VIEW revenue3 (supplier', 'SELECT s_suppkey, s_name, s_ad', 'DROP VIEW revenue3']);
    expect(c.log[1]).toMatch(/ORDER BY s_suppkey OPTION \(MAXDOP 4\)$/);
    c.log = [];
    c.failOn = /^SELECT/;
    await expect(s.query(queryText(15))).rejects.toThrow(/Invalid object name/);
    expect(c.log.at(-1)).toBe('DROP VIEW revenue3');
  });

  it('explain: SHOWPLAN_TEXT on in its own batch, the query planned, off again', async () => {
    const c = new FakeStream();
    const plan = await new MssqlTprochStream(c, 2).explain(queryText(1));
    expect(plan).toBe('  |--Stream Aggregate\n       |--Clustered Index Scan');
    expect(c.log[0]).toBe('SET SHOWPLAN_TEXT ON');
    expect(c.log[1]).toMatch(/^SELECT l_returnflag.* OPTION \(MAXDOP 2\)$/);
    expect(c.log[2]).toBe('SET SHOWPLAN_TEXT OFF');
  });

  it('cancel sends an attention on the stream connection', async () => {
    const c = new FakeStream();
    await new MssqlTprochStream(c, 1).cancel();
    expect(c.cancelled).toBe(1);
  });

  it('RF1: an order then its lineitems, typed parameters, a commit every commitEvery orders and at the end', async () => {
    const c = new FakeStream();
    await new MssqlTprochStream(c, 1).newSales(newOrders(5), { trickleMs: 0, commitEvery: 2, stopped: () => false });
    const shape = c.log.map((l) => (l.startsWith('INSERT INTO dbo.orders') ? 'O' : l.startsWith('INSERT INTO dbo.lineitem') ? 'L' : l));
    expect(shape).toEqual(['BEGIN', 'O', 'L', 'L', 'O', 'L', 'L', 'COMMIT', 'BEGIN', 'O', 'L', 'L', 'O', 'L', 'L', 'COMMIT', 'BEGIN', 'O', 'L', 'L', 'COMMIT']);
    const orderParams = c.params[0]!;
    expect(orderParams.map((p) => p.name)).toEqual([...TPROCH_COLUMNS.orders]);
    expect(orderParams.map((p) => p.type)).toEqual(['bigint', 'int', 'varchar', 'decimal', 'date', 'varchar', 'varchar', 'int', 'varchar']);
    expect(c.params[1]!.find((p) => p.name === 'l_linenumber')).toEqual({ name: 'l_linenumber', type: 'int', value: 1 });
  });

  it('RF1 stops before the next order when asked, committing what it inserted; trickle sleeps before each order', async () => {
    const c = new FakeStream();
    let n = 0;
    const t0 = Date.now();
    await new MssqlTprochStream(c, 1).newSales(newOrders(5), { trickleMs: 20, commitEvery: 1000, stopped: () => n++ >= 2 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(35);
    expect(c.log.filter((l) => l.startsWith('INSERT INTO dbo.orders'))).toHaveLength(2);
    expect(c.log.at(-1)).toBe('COMMIT');
  });

  it('RF2: lineitems then the order per key; a failure rolls back the open transaction', async () => {
    const c = new FakeStream();
    await new MssqlTprochStream(c, 1).oldSales([11, 12, 13], { trickleMs: 0, commitEvery: 2, stopped: () => false });
    expect(c.log).toEqual([
      'BEGIN',
      'DELETE FROM dbo.lineitem WHERE l_orderkey = @orderkey',
      'DELETE FROM dbo.orders WHERE o_orderkey = @orderkey',
      'DELETE FROM dbo.lineitem WHERE l_orderkey = @orderkey',
      'DELETE FROM dbo.orders WHERE o_orderkey = @orderkey',
      'COMMIT',
      'BEGIN',
      'DELETE FROM dbo.lineitem WHERE l_orderkey = @orderkey',
      'DELETE FROM dbo.orders WHERE o_orderkey = @orderkey',
      'COMMIT',
    ]);
    expect(c.params[0]).toEqual([{ name: 'orderkey', type: 'bigint', value: 11 }]);
    const f = new FakeStream();
    f.failOn = /^DELETE FROM dbo\.orders/;
    await expect(new MssqlTprochStream(f, 1).oldSales([1], { trickleMs: 0, commitEvery: 10, stopped: () => false })).rejects.toThrow();
    expect(f.log.at(-1)).toBe('ROLLBACK');
  });

  it('session settings: program name per stream, query timeout as tedious requestTimeout, MAXDOP from the admin file', () => {
    const so = streamOpenOptions(target, { stream: 2, dop: 8, queryTimeoutSec: 90, log: () => undefined });
    expect(so).toEqual({ database: 'tpch', appName: 'sledge-tproch-2', requestTimeoutMs: 90000 });
    const cfg = streamConfig(target, so);
    expect(cfg.options?.requestTimeout).toBe(90000);
    expect(cfg.options?.appName).toBe('sledge-tproch-2');
    expect(streamConfig(target, { ...so, requestTimeoutMs: 0 }).options?.requestTimeout).toBe(0);
    expect(withMaxdop('SELECT 1;\n-- trailing note\n', 3)).toBe('SELECT 1\nOPTION (MAXDOP 3)');
    expect(sendable('DROP VIEW x;')).toBe('DROP VIEW x');
  });

  it('is registered on the driver as workloads.tproch, tuples, and validates the database name before connecting', async () => {
    const h = driver.workloads.tproch!;
    expect(h.bulkFormat(target)).toBe('tuples');
    await expect(h.openAdmin({ ...target, database: 'x]y' }, () => undefined)).rejects.toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'target.database' });
    await expect(h.openStream({ ...target, database: 'x;y' }, { stream: 0, dop: 1, queryTimeoutSec: 0, log: () => undefined })).rejects.toBeInstanceOf(SledgeError);
  });
});

