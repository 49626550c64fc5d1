import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSqlScript, tproccHooks } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import { connect, type Handle } from '../engine/connection.js';
import { driver } from '../index.js';
import { tproccScript } from './sql.js';
import { NO_TRANSACTIONS } from './hooks.js';

// Why DuckDB offers no TPROC-C transactions: two VUs' transactions that update the same DISTRICT
// (new-order's d_next_o_id) or WAREHOUSE row (payment's w_ytd) at once, on TPROC-C's own tables.
const dir = mkdtempSync(join(tmpdir(), 'sledge-duckdb-tprocc-conflict-'));
const target: DuckdbTarget = { engine: 'duckdb', file: join(dir, 'conflict.duckdb') };
let a: Handle;
let b: Handle;

beforeAll(async () => {
  a = await connect(target, 'create');
  b = await connect(target, 'existing');
  for (const s of splitSqlScript(tproccScript('tables.sql'))) await a.conn.run(s);
  await a.conn.run("INSERT INTO warehouse VALUES (1, 'w', 's1', 's2', 'c', 'st', '123451111', 0.1, 300000.00)");
  await a.conn.run("INSERT INTO district SELECT d, 1, 'd', 's1', 's2', 'c', 'st', '123451111', 0.1, 30000.00, 3001 FROM range(1, 11) t(d)");
});
afterAll(() => {
  a?.release();
  b?.release();
  rmSync(dir, { recursive: true, force: true });
});

const nextOrder = 'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = $1';
const payment = 'UPDATE warehouse SET w_ytd = w_ytd + $1 WHERE w_id = 1';
const value = async (h: Handle, sql: string) => Number((await h.conn.runAndReadAll(sql)).getRows()[0]![0]);

describe('TPROC-C under DuckDB concurrency (two VUs, one file)', () => {
  it("new-order: the second VU's update of the same district fails with a conflict instead of waiting", async () => {
    await a.conn.run('BEGIN TRANSACTION');
    await b.conn.run('BEGIN TRANSACTION');
    await a.conn.run(nextOrder, [1]);
    await expect(b.conn.run(nextOrder, [1])).rejects.toThrow(/Conflict/i);
    await b.conn.run('ROLLBACK');
    await a.conn.run('COMMIT');
    expect(await value(a, 'SELECT d_next_o_id FROM district WHERE d_id = 1')).toBe(3002);
  });

  it("payment: the second VU's update of the same warehouse fails the same way", async () => {
    await a.conn.run('BEGIN TRANSACTION');
    await b.conn.run('BEGIN TRANSACTION');
    await a.conn.run(payment, [10]);
    await expect(b.conn.run(payment, [20])).rejects.toThrow(/Conflict/i);
    await b.conn.run('ROLLBACK');
    await a.conn.run('COMMIT');
    expect(await value(a, 'SELECT w_ytd FROM warehouse')).toBe(300010);
  });

  it('updates of different districts both commit: the conflict is per row', async () => {
    await a.conn.run('BEGIN TRANSACTION');
    await b.conn.run('BEGIN TRANSACTION');
    await a.conn.run(nextOrder, [2]);
    await b.conn.run(nextOrder, [3]);
    await a.conn.run('COMMIT');
    await b.conn.run('COMMIT');
    expect(await value(a, 'SELECT sum(d_next_o_id) FROM district WHERE d_id IN (2, 3)')).toBe(6004);
  });

  it('so the driver offers TPROC-C\'s schema without its transactions: a VU session is a typed error with the reason', async () => {
    const hooks = tproccHooks(driver);
    expect(hooks.noTransactions).toBe(NO_TRANSACTIONS);
    await expect(hooks.openVu({ ...target }, { vu: 2, log: () => undefined })).rejects.toMatchObject({ code: 'SLEDGE_E_DRIVER_UNAVAILABLE', field: 'target.engine' });
  });
});
