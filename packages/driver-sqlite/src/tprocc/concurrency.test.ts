import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSampleWarehouses, evaluateCheck, type AdminSession } from '@sledge/core';
import { driver } from '../index.js';
import { tempTarget } from '../test-support/build.js';

interface WorkerReport {
  commit: number;
  rollback: number;
  neworders: number;
  lockTimeouts: number;
  failures: string[];
  waitMs: number;
  execMs: number;
  maxWaitMs: number;
}

function inWorker<R>(fixture: string, workerData: unknown): Promise<R> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(`../test-support/${fixture}`, import.meta.url), { workerData });
    let report: R | undefined;
    w.once('message', (m: R) => (report = m));
    w.once('error', reject);
    w.once('exit', (code) => (report && code === 0 ? resolve(report) : reject(new Error(`worker exited with ${code} and no report`))));
  });
}

/**
 * Two build workers, then two VUs, in worker threads (as the server runs SQLite) on one file:
 * BEGIN IMMEDIATE serialises the writers, so the only failure allowed is a
 * retryable lock timeout, and the schema stays consistent.
 */
describe('two worker threads on one file', () => {
  const target = tempTarget('concurrency');
  let admin: AdminSession;

  beforeAll(async () => {
    // Built as the server builds: the monitor creates and finishes, two
    // build threads load ITEM and warehouse 1 at the same time.
    admin = await driver.workloads.tprocc.openAdmin(target, () => undefined);
    await admin.createSchema({ warehouses: 1, buildVus: 1 });
    const loaded = await Promise.all([
      inWorker<{ rows: number }>('load-worker.mjs', { target, what: 'items' }),
      inWorker<{ rows: number }>('load-worker.mjs', { target, what: 1 }),
    ]);
    expect(loaded.map((l) => l.rows)).toEqual([100000, expect.any(Number)]);
    await admin.finishSchema({ warehouses: 1, buildVus: 1 });
  });

  it('two build threads loaded a complete schema', async () => {
    const facts = await admin.checkFacts([1]);
    expect(evaluateCheck(facts, 1).filter((i) => !i.ok)).toEqual([]);
  });

  afterAll(async () => {
    await admin?.dropSchema();
    await admin?.close();
  });

  it('runs the mix with no failure but lock timeouts, and C1-C4 hold after', async () => {
    const before = await admin.readCounters();
    const reports = await Promise.all([2, 3].map((position) => inWorker<WorkerReport>('hammer-worker.mjs', { target, position, seconds: 4 })));
    for (const r of reports) {
      expect(r.failures).toEqual([]);
      expect(r.commit).toBeGreaterThan(50);
      expect(r.rollback).toBeGreaterThanOrEqual(0);
    }
    // The threads overlapped: some BEGIN IMMEDIATE sat in the busy handler (it sleeps >= 1 ms a try).
    expect(reports.some((r) => r.maxWaitMs >= 1)).toBe(true);
    for (const r of reports) {
      console.info(
        `VU: ${r.commit} commits, ${r.rollback} rollbacks, ${r.lockTimeouts} lock timeouts, lock wait ${r.waitMs.toFixed(0)} ms (max ${r.maxWaitMs.toFixed(1)}), executing ${r.execMs.toFixed(0)} ms`,
      );
    }
    const after = await admin.readCounters();
    expect(after.nopm - before.nopm).toBe(reports.reduce((s, r) => s + r.neworders, 0));
    const facts = await admin.checkFacts(checkSampleWarehouses(1));
    expect(evaluateCheck(facts, 1).filter((i) => !i.ok && i.name !== 'row counts')).toEqual([]);
  });
});
