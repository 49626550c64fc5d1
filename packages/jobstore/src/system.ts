import { SledgeError } from '@sledge/protocol';
import type { Db } from './db.js';
import type { JobsRepo } from './jobs.js';
import { requireString } from './check.js';
import { fromJson, toJson } from './json.js';

/** System information per source (HammerDB's JOBSYSTEM): e.g. "client", "server", an agent's host name. */
export class SystemRepo {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
  ) {}

  /** Replace the information of one source. */
  set(jobId: string, source: string, info: Record<string, unknown>): void {
    requireString(source, 'source', { nonEmpty: true });
    if (info === null || typeof info !== 'object' || Array.isArray(info)) {
      throw new SledgeError('SLEDGE_E_VALIDATION', 'info must be an object', { field: 'info' });
    }
    this.jobs.assertExists(jobId);
    this.db
      .prepare(
        `INSERT INTO job_system (job_id, source, info, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (job_id, source) DO UPDATE SET info = excluded.info, updated_at = excluded.updated_at`,
      )
      .run(jobId, source, toJson(info, 'info'), new Date().toISOString());
  }

  /** Every source's information, keyed by source. */
  get(jobId: string): Record<string, Record<string, unknown>> {
    const rows = this.db.prepare('SELECT source, info FROM job_system WHERE job_id = ? ORDER BY source').all(jobId) as { source: string; info: string }[];
    return Object.fromEntries(rows.map((r) => [r.source, fromJson<Record<string, unknown>>(r.info)]));
  }
}
