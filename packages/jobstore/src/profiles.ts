import { DEFAULT_WORKLOAD } from '@sledge/protocol';
import type { Db } from './db.js';
import { requireInteger } from './check.js';

/** One performance profile (a VU sweep): run jobs sharing profile_id > 0. */
export interface ProfileSummary {
  profileId: number;
  /** Run jobs in the profile, whatever their status. */
  jobs: number;
  /** Engine of the profile's first run job. */
  engine: string;
  /** Maxima over the profile's completed runs with a result (0 when there are none). */
  maxNopm: number;
  maxTpm: number;
  maxVus: number;
}

/** One point of a profile chart: NOPM and TPM against active VUs. */
export interface ProfilePoint {
  jobId: string;
  engine: string;
  createdAt: string;
  activeVus: number;
  nopm: number;
  tpm: number;
}

/** A completed run with a result: what best-job stars and profile charts count. */
const COMPLETED_RUN = `j.type = 'run' AND j.status = 'completed'`;

/**
 * Read models over jobs and results: best job per engine (HammerDB's star)
 * and performance profiles (HammerDB's `jobs profile`).
 */
export class ProfilesRepo {
  constructor(private readonly db: Db) {}

  /**
   * Highest-headline completed run per engine among one workload's jobs
   * (TPROC-C: the highest NOPM); ties go to the earlier job.
   */
  bestJobs(workload: string = DEFAULT_WORKLOAD): Record<string, string> {
    const rows = this.db
      .prepare(
        `SELECT engine, id FROM (
           SELECT j.engine, j.id,
                  row_number() OVER (PARTITION BY j.engine ORDER BY r.value DESC, j.created_at ASC, j.rowid ASC) AS rn
           FROM job j JOIN job_result r ON r.job_id = j.id
           WHERE ${COMPLETED_RUN} AND r.workload = ?
         ) WHERE rn = 1 ORDER BY engine`,
      )
      .all(workload) as { engine: string; id: string }[];
    return Object.fromEntries(rows.map((r) => [r.engine, r.id]));
  }

  profiles(): ProfileSummary[] {
    return this.db
      .prepare(
        `SELECT p.profile_id AS profileId, p.jobs,
                (SELECT f.engine FROM job f WHERE f.profile_id = p.profile_id AND f.type = 'run'
                  ORDER BY f.created_at, f.rowid LIMIT 1) AS engine,
                p.max_nopm AS maxNopm, p.max_tpm AS maxTpm, p.max_vus AS maxVus
         FROM (
           SELECT j.profile_id, count(*) AS jobs,
                  coalesce(max(CASE WHEN j.status = 'completed' THEN r.nopm END), 0) AS max_nopm,
                  coalesce(max(CASE WHEN j.status = 'completed' THEN r.tpm END), 0) AS max_tpm,
                  coalesce(max(CASE WHEN j.status = 'completed' THEN r.active_vus END), 0) AS max_vus
           FROM job j LEFT JOIN job_result r ON r.job_id = j.id
           WHERE j.profile_id > 0 AND j.type = 'run'
           GROUP BY j.profile_id
         ) p ORDER BY p.profile_id`,
      )
      .all() as ProfileSummary[];
  }

  /** Completed runs of a profile with their results, by active VUs then creation time. */
  profileJobs(profileId: number): ProfilePoint[] {
    requireInteger(profileId, 'profileId', 1);
    return this.db
      .prepare(
        `SELECT j.id AS jobId, j.engine, j.created_at AS createdAt, coalesce(r.active_vus, 0) AS activeVus, coalesce(r.nopm, 0) AS nopm, coalesce(r.tpm, 0) AS tpm
         FROM job j JOIN job_result r ON r.job_id = j.id
         WHERE j.profile_id = ? AND ${COMPLETED_RUN}
         ORDER BY r.active_vus, j.created_at, j.rowid`,
      )
      .all(profileId) as ProfilePoint[];
  }
}
