import { SledgeError, type BuildProgress, type CheckItem, type VuStatus } from '@sledge/protocol';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import type { JobsRepo } from './jobs.js';
import { fromJson, toJson } from './json.js';
import { requireArray } from './check.js';

type Kind = 'vus' | 'progress' | 'check';

/**
 * Latest-value snapshots of a job, replaced on every set and written at once:
 * the VU grid, build progress, checkschema results.
 */
export class StateRepo {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
  ) {}

  setVus(jobId: string, vus: readonly VuStatus[]): void {
    this.put(jobId, 'vus', requireArray(vus, 'vus'));
  }

  getVus(jobId: string): VuStatus[] {
    return this.read<VuStatus[]>(jobId, 'vus') ?? [];
  }

  setProgress(jobId: string, progress: BuildProgress): void {
    if (progress === null || typeof progress !== 'object' || Array.isArray(progress)) {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'progress must be a build progress object', { field: 'progress' });
    }
    this.put(jobId, 'progress', progress);
  }

  getProgress(jobId: string): BuildProgress | undefined {
    return this.read<BuildProgress>(jobId, 'progress');
  }

  setCheck(jobId: string, items: readonly CheckItem[]): void {
    this.put(jobId, 'check', requireArray(items, 'items'));
  }

  getCheck(jobId: string): CheckItem[] {
    return this.read<CheckItem[]>(jobId, 'check') ?? [];
  }

  /** Prepared once: a run replaces its VU grid every second. */
  private upsert: Statement<unknown[]> | null = null;

  private put(jobId: string, kind: Kind, value: unknown): void {
    this.jobs.assertExists(jobId);
    this.upsert ??= this.db.prepare(
      `INSERT INTO job_state (job_id, kind, data, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (job_id, kind) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
    );
    this.upsert.run(jobId, kind, toJson(value, kind), new Date().toISOString());
  }

  private read<T>(jobId: string, kind: Kind): T | undefined {
    const row = this.db.prepare('SELECT data FROM job_state WHERE job_id = ? AND kind = ?').get(jobId, kind) as { data: string } | undefined;
    return row === undefined ? undefined : fromJson<T>(row.data);
  }
}
