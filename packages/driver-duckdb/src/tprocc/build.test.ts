import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TPROCC_COLUMNS, TproccGenerator, evaluateCheck, expectedRows, itemUnits, tproccHooks, warehouseUnits, type AdminSession, type Value } from '@sledge/core';
import { TPROCC_TABLES, type DuckdbTarget, type TproccTable } from '@sledge/protocol';
import { connect, type Handle } from '../engine/connection.js';
import { stagingDir } from '../engine/loader.js';
import { jsValue } from '../engine/values.js';
import { driver } from '../index.js';

// One 1-warehouse TPROC-C build through the driver (staged csv files, COPY, keys, ANALYZE) on a temp-dir file, shared by the file's tests.
const SEED = 4242;
const AT = '2026-01-01 00:00:00';
const dir = mkdtempSync(join(tmpdir(), 'sledge-duckdb-tprocc-'));
const target: DuckdbTarget = { engine: 'duckdb', file: join(dir, 'tprocc.duckdb') };
const hooks = tproccHooks(driver);
const log = () => undefined;
let admin: AdminSession;

/** The rows every engine loads for this seed: the generator's tuples (other engines bind them or encode them as this build does). */
let tuples: Record<TproccTable, Value[][]> | undefined;
function generated(): Record<TproccTable, Value[][]> {
  if (tuples) return tuples;
  const gen = new TproccGenerator({ seed: SEED, timestamp: AT }, 'tuples');
  const out = Object.fromEntries(TPROCC_TABLES.map((t) => [t, [] as Value[][]])) as Record<TproccTable, Value[][]>;
  for (const t of [...itemUnits(), ...warehouseUnits(1)].flatMap((u) => gen.generate(u))) out[t.table].push(...(t.data as Value[][]));
  tuples = out;
  return out;
}

async function query(h: Handle, sql: string): Promise<unknown[][]> {
  return (await h.conn.runAndReadAll(sql)).getRows().map((r) => r.map(jsValue));
}

beforeAll(async () => {
  admin = await hooks.openAdmin(target, log);
  await admin.createSchema({ warehouses: 1, buildVus: 1 });
  const gen = new TproccGenerator({ seed: SEED, timestamp: AT }, hooks.bulkFormat(target));
  // Two loaders, as two build workers would: each stages its own files.
  const items = await hooks.openLoader(target, log);
  const warehouse = await hooks.openLoader(target, log);
  for (const u of itemUnits()) await items.load(gen.generate(u));
  for (const u of warehouseUnits(1)) await warehouse.load(gen.generate(u));
  await items.close();
  await warehouse.close();
  await admin.finishSchema({ warehouses: 1, buildVus: 1 });
});

afterAll(async () => {
  await admin?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('TPROC-C schema on DuckDB (1 warehouse)', () => {
  it('holds as many rows per table as every other engine for the seed, the staging files gone', async () => {
    expect(await admin.schemaState()).toEqual({ exists: true, warehouses: 1 });
    const facts = await admin.checkFacts([1]);
    const rows = generated();
    expect(facts.rowCounts).toEqual(Object.fromEntries(TPROCC_TABLES.map((t) => [t, rows[t].length])));
    // The plan's fixed counts (ORDER_LINE: 5-15 lines an order, about 10).
    const { order_line: _lines, ...fixed } = expectedRows(1);
    expect(facts.rowCounts).toMatchObject(fixed);
    expect(existsSync(stagingDir(target))).toBe(false);
  });

  it('holds the same rows as every other engine for the seed: whole small tables, and sums over the large ones', async () => {
    const rows = generated();
    const h = await connect(target, 'existing');
    try {
      // Money and rates: the generator's decimal text, DuckDB's DECIMAL as a number.
      const num = (v: unknown) => (typeof v === 'string' && /^-?\d+\.\d+$/.test(v) ? Number(v) : v);
      for (const t of ['warehouse', 'district'] as const) {
        const cols = TPROCC_COLUMNS[t].join(', ');
        const got = await query(h, `SELECT ${cols} FROM ${t} ORDER BY ${TPROCC_COLUMNS[t].slice(0, 2).reverse().join(', ')}`);
        expect(got.map((r) => r.map(num))).toEqual(rows[t].map((r) => r.map(num)));
      }
      const sum = (t: TproccTable, col: string) => rows[t].reduce((s, r) => s + Number(r[TPROCC_COLUMNS[t].indexOf(col)] ?? 0), 0);
      const nulls = (t: TproccTable, col: string) => rows[t].filter((r) => r[TPROCC_COLUMNS[t].indexOf(col)] === null).length;
      const [db] = await query(
        h,
        'SELECT (SELECT sum(s_quantity) FROM stock), (SELECT sum(c_balance) FROM customer), (SELECT sum(i_price) FROM item), (SELECT sum(ol_amount) FROM order_line), (SELECT count(*) FROM order_line WHERE ol_delivery_d IS NULL), (SELECT count(*) FROM orders WHERE o_carrier_id IS NULL), (SELECT sum(h_amount) FROM history)',
      );
      expect(db!.map((v) => Number(v))).toEqual(
        [sum('stock', 's_quantity'), sum('customer', 'c_balance'), sum('item', 'i_price'), sum('order_line', 'ol_amount'), nulls('order_line', 'ol_delivery_d'), nulls('orders', 'o_carrier_id'), sum('history', 'h_amount')].map(
          (x) => Math.round(x * 100) / 100,
        ),
      );
      const [c] = await query(h, "SELECT c_last, c_since, c_credit FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1");
      const first = rows.customer.find((r) => r[0] === 1 && r[1] === 1)!;
      expect(c).toEqual([first[5], first[12], first[13]]);
    } finally {
      h.release();
    }
  });

  it("passes TPROC-C's checkschema (keys on every table but history, C1-C4), with no transaction routines", async () => {
    const facts = await admin.checkFacts([1]);
    expect(facts.routines).toEqual({});
    const items = evaluateCheck(facts, 1);
    expect(items.filter((i) => !i.ok)).toEqual([]);
    expect(items.find((i) => i.name === 'transaction routines exist')?.detail).toMatch(/runs no TPROC-C transactions/);
    expect(await admin.readCounters()).toEqual({ nopm: 10 * 3001, tpm: null });
  });

  it('refuses a second build on the file, naming the tables', async () => {
    const other = await hooks.openAdmin(target, log);
    try {
      await expect(other.assertBuildable!()).rejects.toMatchObject({ code: 'SLEDGE_E_SCHEMA_EXISTS', field: 'target.file' });
    } finally {
      await other.close();
    }
  });

  it('dropSchema deletes the file when it holds nothing else', async () => {
    await admin.dropSchema();
    expect(existsSync(target.file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(await admin.schemaState()).toEqual({ exists: false, warehouses: 0 });
  });
});
