import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';
import { loadMigrations, migrate } from './migrate.js';
import { JobStore } from './store.js';
import { jobInput, tempDir, tempStore } from './test/helpers.js';

const RESULTS = [
  { expr: 'nopm>1000', metric: 'nopm', actual: 1500, limit: 1000, unit: '', ok: true, message: 'nopm 1500 > 1000: pass' },
  { expr: 'p95(neword)<50ms', metric: 'p95(neworder)', actual: null, limit: 50, unit: 'ms', ok: false, message: 'p95(neworder): metric not available for this job: no times' },
];

describe('threshold evaluation in the job store (migration 0003)', () => {
  it('keeps passed and thresholdResults with the job, in detail and list', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput());
    expect(job.passed).toBeUndefined();
    expect(job.thresholdResults).toBeUndefined();
    store.updateJob(job.id, { passed: false, thresholdResults: RESULTS });
    const got = store.getJob(job.id)!;
    expect(got.passed).toBe(false);
    expect(got.thresholdResults).toEqual(RESULTS);
    expect(store.listJobs({}).jobs[0]).toMatchObject({ id: job.id, passed: false });
    store.updateJob(job.id, { passed: true });
    expect(store.getJob(job.id)!.passed).toBe(true);
  });

  it('refuses a malformed evaluation and changes nothing', () => {
    const { store } = tempStore();
    const job = store.createJob(jobInput());
    expect(() => store.updateJob(job.id, { passed: 'yes' as never })).toThrow(/passed must be true or false/);
    expect(() => store.updateJob(job.id, { thresholdResults: {} as never })).toThrow(/thresholdResults must be a list/);
    expect(store.getJob(job.id)!.passed).toBeUndefined();
  });

  it('a job stored before the migration reads as it did, with no verdict', () => {
    const path = join(tempDir(), 'sledge.db');
    const db = openDatabase(path);
    migrate(db, loadMigrations().slice(0, 2));
    db.prepare(
      `INSERT INTO job (id, type, workload, engine, status, profile_id, created_at, config, seed, client_version) VALUES ('0000000000000000000000B1', 'run', 'tprocc', 'sqlite', 'completed', 0, '2026-01-01T00:00:00.000Z', '{}', 1, 'x')`,
    ).run();
    db.close();
    const store = JobStore.open(path);
    try {
      const j = store.getJob('0000000000000000000000B1')!;
      expect(j.status).toBe('completed');
      expect('passed' in j).toBe(false);
      expect('thresholdResults' in j).toBe(false);
    } finally {
      store.close();
    }
  });
});
