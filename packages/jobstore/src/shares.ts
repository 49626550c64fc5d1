import type { Db } from './db.js';
import type { JobsRepo } from './jobs.js';
import { newShareToken } from './ids.js';

/** Share links: an unguessable token that resolves to one job until revoked or the job is deleted. */
export class SharesRepo {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
  ) {}

  create(jobId: string): { token: string } {
    this.jobs.assertExists(jobId);
    const token = newShareToken();
    this.db.prepare('INSERT INTO share_link (token, job_id, created_at) VALUES (?, ?, ?)').run(token, jobId, new Date().toISOString());
    return { token };
  }

  resolve(token: string): string | undefined {
    if (typeof token !== 'string') return undefined;
    const row = this.db.prepare('SELECT job_id FROM share_link WHERE token = ?').get(token) as { job_id: string } | undefined;
    return row?.job_id;
  }

  /** True when the token existed (and, with `jobId`, belonged to that job). */
  revoke(token: string, jobId?: string): boolean {
    if (typeof token !== 'string') return false;
    if (jobId === undefined) return this.db.prepare('DELETE FROM share_link WHERE token = ?').run(token).changes > 0;
    return this.db.prepare('DELETE FROM share_link WHERE token = ? AND job_id = ?').run(token, jobId).changes > 0;
  }

  list(jobId: string): { token: string; createdAt: string }[] {
    this.jobs.assertExists(jobId);
    return (this.db.prepare('SELECT token, created_at FROM share_link WHERE job_id = ? ORDER BY created_at, token').all(jobId) as { token: string; created_at: string }[]).map((r) => ({
      token: r.token,
      createdAt: r.created_at,
    }));
  }
}
