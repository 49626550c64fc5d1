import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { JobStore } from './store.js';
import { newJobId } from './ids.js';
import { jobInput, sleep, tempStore } from './test/helpers.js';

const rawCount = (path: string, jobId: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM job_output WHERE job_id = ?').get(jobId) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('output', () => {
  it('assigns contiguous 1-based seqs per job synchronously and reads them back exactly', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    const b = store.createJob(jobInput()).id;
    expect(store.appendOutput(a, [{ vu: 0, ts: 1000, text: 'Vuser 1:RUNNING' }, { vu: 1, ts: 1001.5, text: 'DBVersion:15.4' }])).toEqual({ firstSeq: 1, lastSeq: 2 });
    expect(store.appendOutput(b, [{ vu: 2, ts: 1002, text: 'other job' }])).toEqual({ firstSeq: 1, lastSeq: 1 });
    expect(store.appendOutput(a, [])).toEqual({ firstSeq: 3, lastSeq: 2 });
    expect(store.appendOutput(a, [{ vu: 2, ts: 1003, text: 'ünïcode ✓ and "quotes"\ttab' }])).toEqual({ firstSeq: 3, lastSeq: 3 });
    expect(store.getOutput(a)).toEqual({
      lines: [
        { seq: 1, vu: 0, ts: 1000, text: 'Vuser 1:RUNNING' },
        { seq: 2, vu: 1, ts: 1001.5, text: 'DBVersion:15.4' },
        { seq: 3, vu: 2, ts: 1003, text: 'ünïcode ✓ and "quotes"\ttab' },
      ],
      total: 3,
    });
    expect(store.getOutput(b).lines).toEqual([{ seq: 1, vu: 2, ts: 1002, text: 'other job' }]);
  });

  it('continues the seq counter of a reopened store', () => {
    const { store, path } = tempStore();
    const a = store.createJob(jobInput()).id;
    store.appendOutput(a, [{ vu: 1, ts: 1, text: 'one' }, { vu: 1, ts: 2, text: 'two' }]);
    store.close();
    const again = JobStore.open(path);
    try {
      expect(again.appendOutput(a, [{ vu: 1, ts: 3, text: 'three' }])).toEqual({ firstSeq: 3, lastSeq: 3 });
      expect(again.getOutput(a).lines.map((l) => l.seq)).toEqual([1, 2, 3]);
    } finally {
      again.close();
    }
  });

  it('filters by vu, pages with afterSeq/limit and searches text; total ignores the cursor', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    const lines = Array.from({ length: 30 }, (_, i) => ({ vu: i % 3, ts: 1000 + i, text: i % 10 === 0 ? `Error in Virtual User ${i % 3}: 50% done_` : `line ${i}` }));
    store.appendOutput(a, lines);
    const vu1 = store.getOutput(a, { vu: 1 });
    expect(vu1.total).toBe(10);
    expect(vu1.lines.map((l) => l.seq)).toEqual([2, 5, 8, 11, 14, 17, 20, 23, 26, 29]);
    const page = store.getOutput(a, { vu: 1, afterSeq: 8, limit: 3 });
    expect(page).toEqual({ lines: [11, 14, 17].map((seq) => ({ seq, ...lines[seq - 1] })), total: 10 });
    expect(page.lines[0]?.text).toMatch(/^Error in Virtual User 1/);
    expect(store.getOutput(a, { afterSeq: 28 }).lines.map((l) => l.seq)).toEqual([29, 30]);
    expect(store.getOutput(a, { afterSeq: 30 }).lines).toEqual([]);
    const errs = store.getOutput(a, { q: 'error in virtual' });
    expect(errs.total).toBe(3);
    expect(errs.lines.map((l) => l.seq)).toEqual([1, 11, 21]);
    expect(store.getOutput(a, { q: '%' }).lines.map((l) => l.seq)).toEqual([1, 11, 21]);
    expect(store.getOutput(a, { q: '_' }).lines.map((l) => l.seq)).toEqual([1, 11, 21]);
    expect(store.getOutput(a, { q: 'line 2', vu: 2 }).lines.map((l) => l.text)).toEqual(['line 2', 'line 23', 'line 26', 'line 29']);
    expect(store.getOutput(a, { limit: 5 }).lines).toHaveLength(5);
    expect(store.getOutput(newJobId())).toEqual({ lines: [], total: 0 });
  });

  it('validates lines before assigning any seq', () => {
    const { store } = tempStore();
    const a = store.createJob(jobInput()).id;
    const bad = [
      [{ vu: -1, ts: 1, text: 'x' }, 'lines[1].vu'],
      [{ vu: 1.5, ts: 1, text: 'x' }, 'lines[1].vu'],
      [{ vu: 1, ts: Number.NaN, text: 'x' }, 'lines[1].ts'],
      [{ vu: 1, ts: 1, text: 7 }, 'lines[1].text'],
    ] as const;
    for (const [line, field] of bad) {
      try {
        store.appendOutput(a, [{ vu: 1, ts: 1, text: 'ok' }, line as never]);
        expect.unreachable();
      } catch (e) {
        expect(SledgeError.is(e) && e.field).toBe(field);
      }
    }
    expect(() => store.appendOutput(newJobId(), [{ vu: 1, ts: 1, text: 'x' }])).toThrow(/does not exist/);
    expect(() => store.getOutput(a, { limit: 0 })).toThrow(/limit/);
    expect(store.appendOutput(a, [{ vu: 1, ts: 1, text: 'first' }])).toEqual({ firstSeq: 1, lastSeq: 1 });
  });

  it('buffers appends and writes them on the flush timer, in one transaction', async () => {
    const { store, path } = tempStore({ flushMs: 150 });
    const a = store.createJob(jobInput()).id;
    store.appendOutput(a, [{ vu: 1, ts: 1, text: 'x' }, { vu: 1, ts: 2, text: 'y' }]);
    store.appendMetrics(a, 'cpu', [{ ts: 1, data: 1 }]);
    expect(store.pendingRows).toBe(3);
    expect(rawCount(path, a)).toBe(0);
    const deadline = Date.now() + 3000;
    while (store.pendingRows > 0 && Date.now() < deadline) await sleep(20);
    expect(store.pendingRows).toBe(0);
    expect(rawCount(path, a)).toBe(2);
  });

  it('reads flush first so a reader never misses buffered rows', () => {
    const { store, path } = tempStore({ flushMs: 60000 });
    const a = store.createJob(jobInput()).id;
    store.appendOutput(a, [{ vu: 1, ts: 1, text: 'pending' }]);
    expect(rawCount(path, a)).toBe(0);
    expect(store.getOutput(a).lines.map((l) => l.text)).toEqual(['pending']);
    expect(rawCount(path, a)).toBe(1);
    store.appendOutput(a, [{ vu: 1, ts: 2, text: 'again' }]);
    expect(store.flush()).toBe(1);
    expect(store.flush()).toBe(0);
    expect(rawCount(path, a)).toBe(2);
  });

  it('keeps buffered rows when a flush fails and writes them once the cause is gone', () => {
    const { store, path } = tempStore({ flushMs: 60000 });
    const a = store.createJob(jobInput()).id;
    store.appendOutput(a, [{ vu: 1, ts: 1, text: 'one' }, { vu: 1, ts: 2, text: 'two' }]);
    // Another connection holds the write lock; with a short busy timeout the flush fails.
    const other = new Database(path);
    const { db } = store as unknown as { db: Database.Database };
    db.pragma('busy_timeout = 50');
    other.exec('BEGIN IMMEDIATE');
    expect(() => store.flush()).toThrow(/locked|busy/i);
    expect(store.pendingRows).toBe(2);
    other.exec('ROLLBACK');
    other.close();
    db.pragma('busy_timeout = 30000');
    expect(store.flush()).toBe(2);
    expect(store.getOutput(a).lines.map((l) => [l.seq, l.text])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  it('reports a failed timed flush through onFlushError and retries on the next tick', async () => {
    const errors: Error[] = [];
    const { store, path } = tempStore({ flushMs: 100, onFlushError: (e) => errors.push(e) });
    const a = store.createJob(jobInput()).id;
    const { db } = store as unknown as { db: Database.Database };
    db.pragma('busy_timeout = 20');
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    store.appendOutput(a, [{ vu: 1, ts: 1, text: 'waits for the lock' }]);
    const deadline = Date.now() + 3000;
    while (errors.length === 0 && Date.now() < deadline) await sleep(20);
    expect(errors[0]?.message).toMatch(/locked|busy/i);
    expect(store.pendingRows).toBe(1);
    other.exec('ROLLBACK');
    other.close();
    while (store.pendingRows > 0 && Date.now() < deadline + 3000) await sleep(20);
    expect(store.pendingRows).toBe(0);
    expect(rawCount(path, a)).toBe(1);
  });

  it('appends 100,000 lines and reads them back in pages (timed)', () => {
    const { store } = tempStore({ flushMs: 60000 });
    const a = store.createJob(jobInput()).id;
    const N = 100000;
    const lines = Array.from({ length: N }, (_, i) => ({ vu: (i % 16) + 1, ts: 1_700_000_000_000 + i, text: `Vuser ${(i % 16) + 1}: line ${i} NEWORD commit ok` }));
    const t0 = performance.now();
    const range = store.appendOutput(a, lines);
    const t1 = performance.now();
    expect(range).toEqual({ firstSeq: 1, lastSeq: N });
    expect(store.flush()).toBe(N);
    const t2 = performance.now();
    let after = 0;
    let read = 0;
    let pages = 0;
    for (;;) {
      const page = store.getOutput(a, { afterSeq: after, limit: 1000 });
      if (page.lines.length === 0) break;
      expect(page.total).toBe(N);
      for (const l of page.lines) {
        read++;
        if (l.seq !== read) throw new Error(`seq ${l.seq} where ${read} was expected`);
      }
      after = page.lines[page.lines.length - 1]?.seq ?? after;
      pages++;
    }
    const t3 = performance.now();
    expect(read).toBe(N);
    expect(pages).toBe(100);
    const vuPage = store.getOutput(a, { vu: 7, afterSeq: 50000, limit: 500 });
    const t4 = performance.now();
    expect(vuPage.total).toBe(N / 16);
    expect(vuPage.lines[0]?.seq).toBe(50007);
    console.log(
      `[jobstore perf] 100,000 lines: appendOutput (buffer) ${(t1 - t0).toFixed(0)} ms, flush (1 transaction) ${(t2 - t1).toFixed(0)} ms, ` +
        `read 100 pages of 1000 ${(t3 - t2).toFixed(0)} ms, one vu-filtered page ${(t4 - t3).toFixed(1)} ms`,
    );
  });
});
