import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { jobInput, sleep, tempStore } from './test/helpers.js';

const caught = (fn: () => unknown): SledgeError => {
  try {
    fn();
  } catch (e) {
    if (SledgeError.is(e)) return e;
    throw e;
  }
  throw new Error('expected a SledgeError');
};

/** Fill the store until SQLite's page cap refuses a write. */
function fillUntilFull(store: ReturnType<typeof tempStore>['store'], jobId: string): SledgeError {
  for (let i = 0; i < 10_000; i++) {
    try {
      store.setSystem(jobId, `s${i}`, { blob: 'x'.repeat(8000) });
    } catch (e) {
      if (SledgeError.is(e)) return e;
      throw e;
    }
  }
  throw new Error('the store never filled up');
}

describe('a full job store', () => {
  it('turns SQLITE_FULL into SLEDGE_E_STORAGE_FULL naming the data directory, tells the listeners, and damages nothing', () => {
    const { store, path } = tempStore();
    const kept = store.createJob(jobInput({ label: 'kept' }));
    store.appendOutput(kept.id, [{ vu: 1, ts: 1, text: 'stored before' }]);
    store.flush();
    const faults: string[] = [];
    store.onStorageFault((e) => faults.push(e.code));
    store.setMaxBytes(0); // no growth beyond the current size

    const e = fillUntilFull(store, kept.id);
    expect(e.code).toBe('SLEDGE_E_STORAGE_FULL');
    expect(e.httpStatus).toBe(507);
    expect(e.message).toContain(dirname(path));
    expect(e.message).toMatch(/is full/);
    expect(faults).toContain('SLEDGE_E_STORAGE_FULL');
    // Every write path reports the same typed error.
    expect(caught(() => store.saveConfig({ name: 'x', target: { engine: 'sqlite', file: 'y'.repeat(20000) } } as never)).code).toBe('SLEDGE_E_STORAGE_FULL');
    // The reserve file was given back to the file system to make room for recording the failure.
    expect(existsSync(store.files.reserve)).toBe(false);

    // Reads go on; what was stored is intact; a status update in place still fits.
    expect(store.getOutput(kept.id).lines.map((l) => l.text)).toEqual(['stored before']);
    store.updateJob(kept.id, { status: 'failed', error: { code: 'SLEDGE_E_STORAGE_FULL', message: e.message } });
    expect(store.getJob(kept.id)?.status).toBe('failed');

    store.setMaxBytes(1024 * 1024 * 1024);
    store.assertWritable(); // room again: the reserve comes back
    expect(existsSync(store.files.reserve)).toBe(true);
    store.createJob(jobInput({ label: 'after' }));
    store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare("SELECT label FROM job WHERE label IS NOT NULL ORDER BY created_at").all() as { label: string }[]).map((r) => r.label)).toEqual(['kept', 'after']);
    db.close();
  });

  it('a timed flush that the disk refuses keeps the rows, warns once, and writes them when there is room again', async () => {
    const warnings: Error[] = [];
    const { store } = tempStore({ flushMs: 20, onFlushError: (e) => warnings.push(e) });
    const job = store.createJob(jobInput());
    store.setMaxBytes(0);
    fillUntilFull(store, job.id);
    const lines = Array.from({ length: 3000 }, (_, i) => ({ vu: 1, ts: i, text: `line ${i} ${'z'.repeat(100)}` }));
    store.appendOutput(job.id, lines);
    await sleep(300);
    expect(store.pendingRows).toBe(3000);
    expect(warnings).toHaveLength(1);
    expect(SledgeError.is(warnings[0]) && warnings[0].code).toBe('SLEDGE_E_STORAGE_FULL');
    // A read does not fail because its flush cannot be written.
    expect(store.getOutput(job.id).total).toBe(0);
    store.setMaxBytes(1024 * 1024 * 1024);
    await sleep(200);
    expect(store.pendingRows).toBe(0);
    expect(store.getOutput(job.id, { limit: 5000 }).lines).toHaveLength(3000);
  });
});
