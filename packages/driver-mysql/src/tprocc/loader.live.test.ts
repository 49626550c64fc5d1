import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { TproccGenerator, itemUnits, type TproccUnit } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { MyAdmin } from './admin.js';
import { MARIADB } from '../engine/flavour.js';
import { loadMyVuLoop } from '@sledge/worker-native';
import { MyLoader, type LoaderOptions } from '../engine/loader.js';
import { sqlFor } from './sqlfiles.js';
import { mariadbTarget, rootConnection } from '../testing/live.js';

// Every load path on the real server: LOAD DATA LOCAL INFILE through the
// MariaDB C connector (worker-native, when built) and through mysql2, and
// the multi-row INSERT fallback taken when the server refuses LOCAL INFILE
// (here: the client does not announce LOCAL_FILES, so MariaDB answers 4166).
// The same units loaded every way must give identical tables.
const sql = sqlFor(MARIADB);
const DB_A = 'sledge_mytest_load_a';
const DB_B = 'sledge_mytest_load_b';
const DB_C = 'sledge_mytest_load_c';
const NATIVE = loadMyVuLoop().available;
const TABLES = ['item', 'warehouse', 'stock', 'district', 'customer', 'history', 'orders', 'new_order', 'order_line'];
const UNITS: TproccUnit[] = [
  itemUnits()[0]!,
  { kind: 'warehouse', w: 1 },
  { kind: 'stock', w: 1, from: 1, to: 10000 },
  { kind: 'district', w: 1 },
  { kind: 'customer', w: 1, d: 1 },
  { kind: 'orders', w: 1, d: 1 },
];

let root: Connection;

async function build(db: string, o: LoaderOptions, logs: string[]): Promise<MyLoader> {
  const target = mariadbTarget(db);
  const admin = new MyAdmin(target, MARIADB, sql, () => undefined);
  try {
    await admin.dropSchema();
    await admin.createSchema({ warehouses: 1, buildVus: 1 });
  } finally {
    await admin.close();
  }
  const loader = await MyLoader.open(target, MARIADB, (l) => void logs.push(l), o);
  const gen = new TproccGenerator({ seed: 5, timestamp: '2025-01-01 00:00:00' }, 'csv');
  for (const u of UNITS) await loader.load(gen.generate(u));
  return loader;
}

async function checksums(db: string): Promise<Record<string, string>> {
  const [r] = await root.query<RowDataPacket[]>(`CHECKSUM TABLE ${TABLES.map((t) => `${db}.${t}`).join(', ')}`);
  return Object.fromEntries(r.map((x) => [String(x.Table).split('.')[1], String(x.Checksum)]));
}

async function count(db: string, table: string): Promise<number> {
  const [r] = await root.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${db}.${table}`);
  return Number(r[0]!.n);
}

beforeAll(async () => {
  root = await rootConnection();
});
afterAll(async () => {
  await root?.query(`DROP DATABASE IF EXISTS ${DB_A}`);
  await root?.query(`DROP DATABASE IF EXISTS ${DB_B}`);
  await root?.query(`DROP DATABASE IF EXISTS ${DB_C}`);
  await root?.end();
});

describe('loader paths', () => {
  const logsA: string[] = [];
  const logsB: string[] = [];
  const logsC: string[] = [];
  let a: MyLoader;
  let b: MyLoader;
  let c: MyLoader;

  beforeAll(async () => {
    a = await build(DB_A, {}, logsA);
    b = await build(DB_B, { localFiles: false }, logsB);
    c = await build(DB_C, { client: 'mysql2' }, logsC);
  }, 300_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await c?.close();
  });

  it('uses LOAD DATA LOCAL INFILE when the server allows it, through the C connector when it is built, and says so once', () => {
    expect(a.loadPath).toBe('load-data');
    expect(logsA).toEqual([`MariaDB loader: LOAD DATA LOCAL INFILE (${NATIVE ? 'MariaDB C connector' : 'mysql2: the native connector is not built'})`]);
  });

  it('sends LOAD DATA through mysql2 when asked to (client: mysql2, or SLEDGE_MYLOADER=mysql2)', () => {
    expect(c.loadPath).toBe('load-data');
    expect(logsC).toEqual(['MariaDB loader: LOAD DATA LOCAL INFILE (mysql2, chosen)']);
  });

  it('falls back to multi-row INSERT once the server refuses LOCAL INFILE, and says why once', () => {
    expect(b.loadPath).toBe('insert');
    expect(logsB).toEqual(['MariaDB loader: multi-row INSERT batches (the server refused LOCAL INFILE: error 4166)']);
  });

  it('loads identical rows every way', async () => {
    expect(await count(DB_A, 'order_line')).toBeGreaterThan(25000);
    expect(await count(DB_A, 'customer')).toBe(3000);
    const sums = await checksums(DB_A);
    expect(Object.keys(sums)).toHaveLength(TABLES.length);
    expect(await checksums(DB_B)).toEqual(sums);
    expect(await checksums(DB_C)).toEqual(sums);
  });

  it('INSERT escapes text that is not plain CSV', async () => {
    const data = "200001,1,it's a \\ name,1.00,data\n200002,2,plain,2.00,data\n";
    await b.load([{ table: 'item', rows: 2, data }]);
    const [r] = await root.query<RowDataPacket[]>(`SELECT i_name FROM ${DB_B}.item WHERE i_id > 200000 ORDER BY i_id`);
    expect(r.map((x) => x.i_name)).toEqual(["it's a \\ name", 'plain']);
  });

  it.each([
    ['LOAD DATA (connector)', () => a, DB_A],
    ['INSERT', () => b, DB_B],
    ['LOAD DATA (mysql2)', () => c, DB_C],
  ] as const)('%s: a unit that fails is rolled back whole', async (_name, loader, db) => {
    const gen = new TproccGenerator({ seed: 5, timestamp: '2025-01-01 00:00:00' }, 'csv');
    // New-order rows of district 2 load fine, then district 1's customers collide with the loaded ones.
    const tables = [...gen.generate({ kind: 'orders', w: 1, d: 2 }), ...gen.generate({ kind: 'customer', w: 1, d: 1 })];
    const before = await count(db, 'orders');
    const err = await loader()
      .load(tables)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(SledgeError.is(err) && err.code).toBe('SLEDGE_E_DB');
    expect(await count(db, 'orders')).toBe(before);
    expect(await count(db, 'customer')).toBe(3000);
  });
});
