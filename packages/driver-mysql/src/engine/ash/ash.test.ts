import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mysql2/promise';
import type { AshSample } from '@sledge/protocol';
import { loadMysql2 } from '../connect.js';
import { MARIADB, MYSQL, type Flavour, type MyTarget } from '../flavour.js';
import { mariadbTarget, mysqlTarget, MARIADB_URL, parseMysqlUrl } from '../../testing/live.js';
import { mariadbDriver } from '../../index.js';
import { MyAshSampler } from './sampler.js';

/**
 * Live ASH tests: the local MariaDB (SLEDGE_MARIADB_URL, default root@127.0.0.1:3306) always, a
 * MySQL 8 when SLEDGE_MYSQL_URL is set. Database sledge_ash_my. The assertions hold whatever
 * performance_schema state the server is in: the source follows it.
 */
const DB = 'sledge_ash_my';
const servers: Array<{ name: string; url: string; flavour: Flavour; target: MyTarget }> = [
  { name: 'MariaDB', url: MARIADB_URL, flavour: MARIADB, target: mariadbTarget(DB) },
];
const mysqlUrl = process.env['SLEDGE_MYSQL_URL'];
if (mysqlUrl) servers.push({ name: 'MySQL', url: mysqlUrl, flavour: MYSQL, target: mysqlTarget(DB, {}, mysqlUrl) });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('driver capability', () => {
  it('mariadbDriver.openAshSampler opens the sampler', async () => {
    const s = await mariadbDriver.openAshSampler!(mariadbTarget(DB), () => undefined);
    try {
      expect(['performance_schema', 'processlist']).toContain(s.source);
      expect(Array.isArray(await s.sample())).toBe(true);
    } finally {
      await s.close();
    }
  });
});

for (const srv of servers) {
  describe(`${srv.name} ASH sampler (live)`, () => {
    let setup: Connection;
    const open = async (): Promise<Connection> => {
      const p = parseMysqlUrl(srv.url);
      const mysql = await loadMysql2();
      const c = await mysql.createConnection({ host: p.host, port: p.port, user: p.user, password: p.password, database: DB });
      c.on('error', () => undefined);
      return c;
    };
    const idOf = async (c: Connection) => Number(((await c.query('SELECT CONNECTION_ID() AS id')) as unknown as [Array<{ id: number }>])[0][0]!.id);

    beforeAll(async () => {
      const p = parseMysqlUrl(srv.url);
      const mysql = await loadMysql2();
      const root = await mysql.createConnection({ host: p.host, port: p.port, user: p.user, password: p.password });
      await root.query(`CREATE DATABASE IF NOT EXISTS ${DB}`);
      await root.end();
      setup = await open();
      await setup.query('DROP TABLE IF EXISTS ash_lock');
      await setup.query('CREATE TABLE ash_lock (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB');
      await setup.query('INSERT INTO ash_lock VALUES (1, 0)');
    });

    afterAll(async () => {
      await setup?.query('DROP TABLE IF EXISTS ash_lock').catch(() => undefined);
      await setup?.end();
    });

    it('a session blocked on a row lock is Lock with its holder; a busy query is CPU; a sleep is Timeout', async () => {
      const logs: string[] = [];
      const s = await MyAshSampler.open(srv.target, srv.flavour, (l) => logs.push(l));
      const [holder, waiter, burner, sleeper] = await Promise.all([open(), open(), open(), open()]);
      const holderId = await idOf(holder);
      const waiterId = await idOf(waiter);
      const burnerId = await idOf(burner);
      const sleeperId = await idOf(sleeper);
      const running: Promise<unknown>[] = [];
      try {
        const [[ps]] = (await setup.query('SELECT @@performance_schema AS on_')) as unknown as [[{ on_: number }]];
        expect(s.source).toBe(Number(ps.on_) === 1 ? 'performance_schema' : 'processlist');
        if (s.source === 'processlist') {
          expect(s.notice).toMatch(/performance_schema is OFF: set performance_schema=ON in the server config and restart for wait events/);
          expect(logs.join('\n')).toMatch(/performance_schema is OFF/);
        }
        await holder.query('SET SESSION innodb_lock_wait_timeout = 30');
        await waiter.query('SET SESSION innodb_lock_wait_timeout = 30');
        await holder.query('START TRANSACTION');
        await holder.query('SELECT v FROM ash_lock WHERE id = 1 FOR UPDATE');
        running.push(waiter.query('SELECT v FROM ash_lock WHERE id = 1 FOR UPDATE').catch(() => undefined));
        running.push(burner.query('SELECT BENCHMARK(2000000000, MD5(RAND()))').catch(() => undefined));
        running.push(sleeper.query('SELECT SLEEP(30)').catch(() => undefined));

        const of = (xs: AshSample[], id: number) => xs.find((x) => x.session === String(id));
        let xs: AshSample[] = [];
        for (let i = 0; i < 40; i++) {
          xs = await s.sample();
          if (of(xs, waiterId)?.waitClass === 'Lock' && of(xs, burnerId)?.waitClass === 'CPU' && of(xs, sleeperId)?.waitClass === 'Timeout') break;
          await sleep(250);
        }
        expect(of(xs, waiterId)).toMatchObject({ waitClass: 'Lock', blocking: String(holderId) });
        expect(of(xs, waiterId)!.sql).toBe('SELECT v FROM ash_lock WHERE id = 1 FOR UPDATE');
        expect(of(xs, burnerId)).toMatchObject({ waitClass: 'CPU', event: 'CPU' });
        expect(of(xs, burnerId)!.sqlId).toMatch(/^[0-9a-f]{16,64}$/);
        // SLEEP(): state 'User sleep' in the process list, wait/synch/cond/sql/Item_func_sleep::cond in performance_schema.
        expect(of(xs, sleeperId)).toMatchObject({ waitClass: 'Timeout' });
        // The holder is idle in its transaction (Sleep): not active. The sampler never shows itself.
        expect(of(xs, holderId)).toBeUndefined();
        expect(xs.every((x) => x.user !== undefined)).toBe(true);
      } finally {
        await setup.query(`KILL QUERY ${burnerId}`).catch(() => undefined);
        await setup.query(`KILL QUERY ${sleeperId}`).catch(() => undefined);
        await holder.query('ROLLBACK').catch(() => undefined);
        await Promise.all(running);
        await Promise.all([holder, waiter, burner, sleeper].map((c) => c.end().catch(() => undefined)));
        await s.close();
      }
    });

    it('logs in again after its connection is killed', async () => {
      const s = await MyAshSampler.open(srv.target, srv.flavour, () => undefined);
      try {
        await s.sample();
        const before = s.sessionId!;
        expect(before).toBeGreaterThan(0);
        await setup.query(`KILL ${before}`);
        let ok = false;
        for (let i = 0; i < 5 && !ok; i++) {
          await sleep(200);
          ok = await s.sample().then(
            () => true,
            () => false,
          );
        }
        expect(ok).toBe(true);
        expect(s.sessionId).not.toBe(before);
      } finally {
        await s.close();
      }
    });
  });
}
