import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { MyAdmin } from './admin.js';
import { connect } from '../engine/connect.js';
import { MARIADB } from '../engine/flavour.js';
import { historyLength, purgeHistory } from './purge.js';
import { sqlFor } from './sqlfiles.js';
import { mariadbTarget, rootConnection } from '../testing/live.js';

// MariaDB target.purge: afterRun waits for InnoDB purge, bounded, and
// changes no server setting.
const DB = 'sledge_mytest_purge';
const sql = sqlFor(MARIADB);
const target = mariadbTarget(DB, { purge: true });
let root: Connection;

async function lagWaitSetting(): Promise<string> {
  const [r] = await root.query<RowDataPacket[]>('SELECT @@GLOBAL.innodb_max_purge_lag_wait AS v');
  return String(r[0]!.v);
}

beforeAll(async () => {
  root = await rootConnection();
  await root.query(`CREATE DATABASE IF NOT EXISTS ${DB}`);
  await root.query(`CREATE TABLE IF NOT EXISTS ${DB}.t (id INT PRIMARY KEY, v INT NOT NULL) ENGINE = InnoDB`);
  await root.query(`REPLACE INTO ${DB}.t VALUES (1, 0)`);
});
afterAll(async () => {
  await root?.query(`DROP DATABASE IF EXISTS ${DB}`);
  await root?.end();
});

it('afterRun with purge waits for the history list and leaves the setting as it was', async () => {
  const setting = await lagWaitSetting();
  const logs: string[] = [];
  const admin = new MyAdmin(target, MARIADB, sql, (l) => void logs.push(l), 120_000);
  try {
    await admin.afterRun();
  } finally {
    await admin.close();
  }
  expect(logs[0]).toMatch(/^InnoDB history list length \d+: waiting for purge \(at most 120 s\)$/);
  expect(logs[1]).toMatch(/^purge caught up in [\d.]+ s; history list length \d+$/);
  expect(await lagWaitSetting()).toBe(setting);
}, 150_000);

it('stops waiting at the bound when an open snapshot holds purge back', async () => {
  const holder = await rootConnection();
  const admin = await connect(target, MARIADB, { useDatabase: false, role: 'test' });
  try {
    // A read view that is older than the updates below keeps their undo from being purged.
    await holder.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    await holder.query(`SELECT v FROM ${DB}.t`);
    for (let i = 1; i <= 50; i++) await root.query(`UPDATE ${DB}.t SET v = ? WHERE id = 1`, [i]);
    expect(await historyLength(admin, sql)).toBeGreaterThan(0);
    const logs: string[] = [];
    const t0 = Date.now();
    const r = await purgeHistory(admin, () => connect(target, MARIADB, { useDatabase: false, role: 'purge' }), sql, (l) => void logs.push(l), 1500);
    expect(r.timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.after).toBeGreaterThan(0);
    expect(logs[1]).toMatch(/^purge wait stopped after [\d.]+ s; history list length \d+$/);
  } finally {
    await holder.query('COMMIT');
    await holder.end();
    await admin.end();
  }
}, 60_000);
