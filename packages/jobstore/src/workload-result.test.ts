import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.js';
import { JobsRepo } from './jobs.js';
import { ProfilesRepo } from './profiles.js';
import { loadMigrations, migrate, schemaVersion } from './migrate.js';
import { JobStore } from './store.js';
import { jobInput, tempDir, tempStore } from './test/helpers.js';

const RESULT_A = { nopm: 41000, tpm: 95000, activeVus: 4, tpmSource: 'engine', line: 'TEST RESULT : System achieved 41000 NOPM from 95000 PostgreSQL TPM', measuredSeconds: 300, warehouses: 4 };
const RESULT_B = { nopm: 52000, tpm: 120000, activeVus: 8, tpmSource: 'engine', line: 'TEST RESULT : System achieved 52000 NOPM from 120000 PostgreSQL TPM', measuredSeconds: 300, clientCpuMsPer1000Tx: 12.5 };
const RESULT_C = { nopm: 900, tpm: 2100, activeVus: 1, tpmSource: 'client', line: 'TEST RESULT : System achieved 900 NOPM from 2100 SQLite TPM', measuredSeconds: 60, transactions: 2100 };

/** The job and job_result rows exactly as the writer before migration 0002 stored them. */
function oldJob(db: Db, id: string, over: { engine: string; status: string; profileId: number; createdAt: string; type?: string; result?: Record<string, unknown> }): void {
  db.prepare(
    `INSERT INTO job (id, type, workload, engine, status, label, profile_id, created_at, started_at, ended_at, config, seed, engine_version, client_version, summary)
     VALUES (?, ?, 'tprocc', ?, ?, ?, ?, ?, ?, ?, ?, 42, ?, 'sledge 0.1.0', ?)`,
  ).run(
    id,
    over.type ?? 'run',
    over.engine,
    over.status,
    `label ${id.slice(-2)}`,
    over.profileId,
    over.createdAt,
    over.createdAt,
    over.createdAt,
    JSON.stringify({ type: over.type ?? 'run', workload: 'tprocc', target: { engine: over.engine, password: '********' }, tprocc: { vus: 4 } }),
    'v16.4',
    'done',
  );
  const r = over.result;
  if (r) {
    db.prepare('INSERT INTO job_result (job_id, nopm, tpm, active_vus, data) VALUES (?, ?, ?, ?, ?)').run(id, Number(r['nopm']) || 0, Number(r['tpm']) || 0, Number(r['activeVus']) || 0, JSON.stringify(r));
  }
}

/** bestJobs as it read before migration 0002 (highest nopm per engine). */
const OLD_BEST = `SELECT engine, id FROM (
  SELECT j.engine, j.id, row_number() OVER (PARTITION BY j.engine ORDER BY r.nopm DESC, j.created_at ASC, j.rowid ASC) AS rn
  FROM job j JOIN job_result r ON r.job_id = j.id WHERE j.type = 'run' AND j.status = 'completed'
) WHERE rn = 1 ORDER BY engine`;

const IDS = ['0000000000000000000000A1', '0000000000000000000000A2', '0000000000000000000000A3', '0000000000000000000000A4', '0000000000000000000000A5'];

describe('migration 0002: workload-neutral results', () => {
  it('a store written before the migration opens with every job, result, best job and profile as before', () => {
    const dir = tempDir();
    const path = join(dir, 'data', 'sledge.db');
    const db = openDatabase(path);
    migrate(db, loadMigrations().slice(0, 1));
    expect(schemaVersion(db)).toBe(1);
    oldJob(db, IDS[0]!, { engine: 'postgresql', status: 'completed', profileId: 1, createdAt: '2026-01-01T10:00:00.000Z', result: RESULT_A });
    oldJob(db, IDS[1]!, { engine: 'postgresql', status: 'completed', profileId: 1, createdAt: '2026-01-01T11:00:00.000Z', result: RESULT_B });
    oldJob(db, IDS[2]!, { engine: 'sqlite', status: 'completed', profileId: 0, createdAt: '2026-01-01T12:00:00.000Z', result: RESULT_C });
    oldJob(db, IDS[3]!, { engine: 'postgresql', status: 'stopped', profileId: 1, createdAt: '2026-01-01T13:00:00.000Z', result: { ...RESULT_B, nopm: 99000 } });
    oldJob(db, IDS[4]!, { engine: 'postgresql', status: 'completed', profileId: 0, createdAt: '2026-01-01T14:00:00.000Z', type: 'build' });
    // What the store returned before: the job reads (unchanged SQL over the old table) and the old best-job query.
    const jobs = new JobsRepo(db);
    const before = {
      jobs: IDS.map((id) => jobs.get(id)),
      list: jobs.list({}),
      best: Object.fromEntries((db.prepare(OLD_BEST).all() as { engine: string; id: string }[]).map((r) => [r.engine, r.id])),
      profiles: new ProfilesRepo(db).profiles(),
      profile1: new ProfilesRepo(db).profileJobs(1),
    };
    db.close();
    expect(before.best).toEqual({ postgresql: IDS[1], sqlite: IDS[2] });

    const store = JobStore.open(path);
    try {
      expect(IDS.map((id) => store.getJob(id))).toEqual(before.jobs);
      expect(JSON.stringify(IDS.map((id) => store.getJob(id)))).toBe(JSON.stringify(before.jobs));
      expect(store.listJobs({})).toEqual(before.list);
      expect(store.bestJobs()).toEqual(before.best);
      expect(store.profiles()).toEqual(before.profiles);
      expect(store.profileJobs(1)).toEqual(before.profile1);
      expect(store.getJob(IDS[0]!)!.result).toEqual(RESULT_A);
    } finally {
      store.close();
    }
    const after = openDatabase(path);
    try {
      expect(schemaVersion(after)).toBe(loadMigrations().length);
      const rows = after.prepare('SELECT job_id, workload, metric, value, unit, nopm, tpm, active_vus FROM job_result ORDER BY job_id').all();
      expect(rows).toEqual([
        { job_id: IDS[0], workload: 'tprocc', metric: 'nopm', value: 41000, unit: 'NOPM', nopm: 41000, tpm: 95000, active_vus: 4 },
        { job_id: IDS[1], workload: 'tprocc', metric: 'nopm', value: 52000, unit: 'NOPM', nopm: 52000, tpm: 120000, active_vus: 8 },
        { job_id: IDS[2], workload: 'tprocc', metric: 'nopm', value: 900, unit: 'NOPM', nopm: 900, tpm: 2100, active_vus: 1 },
        { job_id: IDS[3], workload: 'tprocc', metric: 'nopm', value: 99000, unit: 'NOPM', nopm: 99000, tpm: 120000, active_vus: 8 },
      ]);
      const notNull = Object.fromEntries((after.prepare('PRAGMA table_info(job_result)').all() as { name: string; notnull: number }[]).map((c) => [c.name, c.notnull]));
      expect(notNull).toMatchObject({ workload: 1, metric: 1, value: 1, unit: 1, data: 1, nopm: 0, tpm: 0, active_vus: 0 });
    } finally {
      after.close();
    }
  });

  it('a new result records its workload and headline, and a result without NOPM leaves the TPROC-C columns empty', () => {
    const { store, path } = tempStore();
    const a = store.createJob(jobInput());
    store.updateJob(a.id, { status: 'completed', result: { ...RESULT_A } as never });
    const b = store.createJob(jobInput());
    store.updateJob(b.id, { result: { queries: 12 } });
    expect(store.getJob(b.id)!.result).toEqual({ queries: 12 });
    expect(store.bestJobs()).toEqual({ postgresql: a.id });
    store.close();
    const db = openDatabase(path);
    try {
      const row = (id: string) => db.prepare('SELECT workload, metric, value, unit, nopm, tpm, active_vus FROM job_result WHERE job_id = ?').get(id);
      expect(row(a.id)).toEqual({ workload: 'tprocc', metric: 'nopm', value: 41000, unit: 'NOPM', nopm: 41000, tpm: 95000, active_vus: 4 });
      expect(row(b.id)).toEqual({ workload: 'tprocc', metric: 'nopm', value: 0, unit: 'NOPM', nopm: null, tpm: null, active_vus: null });
    } finally {
      db.close();
    }
  });
});
