import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSession } from '@sledge/core';
import { driver, type SqliteVuSession } from '../index.js';
import { loadLibrary, type Db } from '../engine/library.js';
import { tempTarget } from '../test-support/build.js';

const log = () => undefined;
const payment = { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, byname: false, c_last: '', amount: 10 };
const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Another thread takes the write lock (BEGIN IMMEDIATE), says so, holds it for holdMs and lets go. */
async function holdWriteLockInThread(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require(workerData.lib);
    const db = new Database(workerData.file);
    db.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('held');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('ROLLBACK');
    db.close();
  `;
  const w = new Worker(code, { eval: true, workerData: { lib: betterSqlite3, file, holdMs } });
  const released = new Promise<void>((res, rej) => {
    w.once('error', rej);
    w.once('exit', () => res());
  });
  await new Promise<void>((res, rej) => {
    w.once('message', () => res());
    w.once('error', rej);
  });
  return { released };
}

/** Lock handling on an empty schema: the write lock is taken (or not) before any row is touched. */
describe('VU session locking', () => {
  const target = tempTarget('locking', { busyTimeoutMs: 250 });
  let admin: AdminSession;
  let vu: SqliteVuSession;
  let holder: Db;

  beforeAll(async () => {
    admin = await driver.workloads.tprocc.openAdmin(target, log);
    await admin.createSchema({ warehouses: 1, buildVus: 1 });
    vu = await driver.workloads.tprocc.openVu(target, { vu: 2, log });
    holder = new (loadLibrary().ctor)(target.file);
  });

  afterAll(async () => {
    holder.close();
    await vu.close();
    await admin.dropSchema();
    await admin.close();
  });

  it('a write transaction waits busyTimeoutMs for the write lock, then fails as a retryable lock timeout', () => {
    holder.exec('BEGIN IMMEDIATE');
    try {
      let err: unknown;
      try {
        vu.run('payment', payment);
      } catch (e) {
        err = e;
      }
      expect(driver.classifyError(err)).toMatchObject({ kind: 'lock-timeout', retryable: true, code: 'SQLITE_BUSY' });
      expect(vu.lastWaitMs()).toBeGreaterThanOrEqual(200);
      expect(vu.lastExecMs()).toBe(0);
      // Read-only transactions read a WAL snapshot beside the writer.
      expect(vu.run('stocklevel', { w_id: 1, d_id: 1, threshold: 15 })).toBe('commit');
      expect(vu.lastWaitMs()).toBeLessThan(150);
    } finally {
      holder.exec('ROLLBACK');
    }
  });

  it('after an error the session is out of its transaction and usable', () => {
    expect(() => vu.run('payment', payment)).toThrow(/warehouse 1 not found/);
    expect(vu.lastWaitMs()).toBeLessThan(200);
    // The failed payment released the write lock: another connection can write at once.
    holder.exec('BEGIN IMMEDIATE');
    holder.exec('ROLLBACK');
    expect(vu.run('stocklevel', { w_id: 1, d_id: 1, threshold: 15 })).toBe('commit');
  });

  it('a writer gets the lock as soon as another thread lets go of it', async () => {
    const slow = await driver.workloads.tprocc.openVu({ ...target, busyTimeoutMs: 5000 }, { vu: 4, log });
    try {
      const { released } = await holdWriteLockInThread(target.file, 150);
      // The empty schema has no warehouse 1: the payment fails after it got the lock.
      expect(() => slow.run('payment', payment)).toThrow(/warehouse 1 not found/);
      expect(slow.lastWaitMs()).toBeGreaterThanOrEqual(100);
      expect(slow.lastWaitMs()).toBeLessThan(4000);
      await released;
    } finally {
      await slow.close();
    }
  });

  it('run() after close() throws a connection error', async () => {
    const s = await driver.workloads.tprocc.openVu(target, { vu: 3, log });
    await s.close();
    await s.close();
    let err: unknown;
    try {
      s.run('stocklevel', { w_id: 1, d_id: 1, threshold: 15 });
    } catch (e) {
      err = e;
    }
    expect(driver.classifyError(err).kind).toBe('connection');
  });
});
