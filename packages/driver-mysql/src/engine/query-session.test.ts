import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuerySession } from '@sledge/core';
import { MariadbTarget, MysqlTarget, validate } from '@sledge/protocol';
import type { Connection } from 'mysql2/promise';
import { mariadbDriver, mysqlDriver } from '../index.js';
import { loadMysql2 } from './connect.js';
import { insertSql, MY_MAX_PARAMS, rowsPerInsert } from './query-session.js';
import { MARIADB_URL, parseMysqlUrl } from '../testing/live.js';

// Live: this machine's MariaDB (SLEDGE_MARIADB_URL, default mysql://root@127.0.0.1:3306), database sledge_mytest_qsession, dropped at the end.
const p = parseMysqlUrl(MARIADB_URL);
const conn = { host: p.host, port: p.port, user: p.user, password: p.password };
const DB = 'sledge_mytest_qsession';
const target = validate(MariadbTarget, { engine: 'mariadb', ...conn, database: DB });

const q = (sql: string) => ({ query: 1, statements: [{ sql, timed: true }] });
const N = 5000;
const rows = Array.from({ length: N }, (_, i) => [i + 1, `name ${i + 1}`, i % 3 === 0 ? null : (i * 1.5).toFixed(2), '2026-01-0' + ((i % 9) + 1)] as const);

async function admin<R>(f: (c: Connection) => Promise<R>): Promise<R> {
  const c = await (await loadMysql2()).createConnection(conn);
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

describe('insert batching (offline)', () => {
  it('splits at 65535 placeholders', () => {
    expect(rowsPerInsert(4, MY_MAX_PARAMS)).toBe(16383);
    expect(rowsPerInsert(70000)).toBe(1);
    expect(insertSql('t', ['a', 'b`c'], 2)).toBe('INSERT INTO `t` (`a`,`b``c`) VALUES (?,?),(?,?)');
  });
});

describe('MariaDB query session (live)', () => {
  let s: QuerySession;

  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${DB}`);
      await c.query(`CREATE DATABASE ${DB}`);
    });
    s = await mariadbDriver.openQuerySession!(target, { name: 'chbench-1', dop: 2, queryTimeoutSec: 0, log: () => undefined });
  });

  afterAll(async () => {
    await s?.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB}`));
  });

  it('exec creates a table; insertRows loads 5,000 rows in one transaction; query counts and fetches them', async () => {
    await s.exec('CREATE TABLE qs_item (id integer PRIMARY KEY, name varchar(20), price decimal(8,2), day date) ENGINE=InnoDB');
    await s.insertRows('qs_item', ['id', 'name', 'price', 'day'], rows);
    const count = await s.query(q('SELECT count(*), count(price) FROM qs_item'), { fetch: true });
    expect(count.rows).toBe(1);
    expect(count.ms).toBeGreaterThanOrEqual(0);
    expect(count.data).toEqual([[N, N - Math.ceil(N / 3)]]);
    const some = await s.query(q('SELECT id, name, price, day FROM qs_item WHERE id IN (1, 2) ORDER BY id'), { fetch: true });
    expect(some.data).toEqual([
      [1, 'name 1', null, '2026-01-01'],
      [2, 'name 2', '1.50', '2026-01-02'],
    ]);
    const noData = await s.query(q('SELECT id FROM qs_item'));
    expect(noData.rows).toBe(N);
    expect(noData.data).toBeUndefined();
  });

  it('insertRows rolls back on a failure and refuses bad input', async () => {
    await expect(s.insertRows('qs_item', ['id', 'name', 'price', 'day'], [[N + 1, 'x', null, null], [1, 'dup', null, null]])).rejects.toThrow(/Duplicate entry/);
    expect((await s.query(q(`SELECT count(*) FROM qs_item WHERE id = ${N + 1}`), { fetch: true })).data).toEqual([[0]]);
    await expect(s.insertRows('qs_item', ['id', 'name'], [[1]])).rejects.toThrow(/row 0 has 1 values for 2 columns/);
  });

  it('names the session by its program_name connection attribute sledge-<name>', async () => {
    const r = await s.query(
      q("SELECT @@performance_schema, (SELECT attr_value FROM performance_schema.session_connect_attrs WHERE processlist_id = CONNECTION_ID() AND attr_name = 'program_name')"),
      { fetch: true },
    );
    const [ps, name] = r.data![0]!;
    // performance_schema is OFF on this machine's MariaDB (it needs a restart to turn on): then the
    // attribute cannot be read back, and the assertion runs only where it is ON.
    if (Number(ps) === 1) expect(name).toBe('sledge-chbench-1');
    else expect(name).toBeNull();
  });

  it('explain returns the plan as a text table', async () => {
    expect(await s.explain(q('SELECT * FROM qs_item WHERE id = 7'))).toMatch(/^id +\| select_type .*\n.*qs_item .*PRIMARY/);
  });

  it('a query past queryTimeoutSec fails with max_statement_time (1969), classified as a timeout', async () => {
    const t = await mariadbDriver.openQuerySession!(target, { name: 'chbench-2', dop: 0, queryTimeoutSec: 1, log: () => undefined });
    try {
      const e = await t.query(q('SELECT SLEEP(3) FROM qs_item LIMIT 1')).then(() => undefined, (x: unknown) => x);
      expect(mariadbDriver.classifyError(e)).toMatchObject({ kind: 'timeout', code: '1969' });
      expect((await t.query(q('SELECT 1'), { fetch: true })).data).toEqual([[1]]);
    } finally {
      await t.close();
    }
  });

  it('cancel() from another promise stops a running query (KILL QUERY)', async () => {
    const running = s.query(q('SELECT SLEEP(30) FROM qs_item LIMIT 1')).then(() => undefined, (x: unknown) => x);
    await new Promise((r) => setTimeout(r, 300));
    await s.cancel();
    // SLEEP() over a table row: the kill ends the statement with error 1317 (a bare SELECT SLEEP() would return 1).
    expect(mariadbDriver.classifyError(await running)).toMatchObject({ kind: 'timeout', code: '1317' });
    expect((await s.query(q('SELECT 2'), { fetch: true })).data).toEqual([[2]]);
  });

  it("the MySQL flavour's driver has the capability too (no timeout: max_execution_time is MySQL's)", async () => {
    const m = await mysqlDriver.openQuerySession!(validate(MysqlTarget, { engine: 'mysql', ...conn, database: DB }), { name: 'chbench-3', dop: 0, queryTimeoutSec: 0, log: () => undefined });
    try {
      await m.insertRows('qs_item', ['id', 'name', 'price', 'day'], [[N + 10, 'mysql', '2.25', '2026-02-03']]);
      expect((await m.query(q(`SELECT name, price, day FROM qs_item WHERE id = ${N + 10}`), { fetch: true })).data).toEqual([['mysql', '2.25', '2026-02-03']]);
    } finally {
      await m.close();
    }
  });
});
