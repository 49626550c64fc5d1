/**
 * Response shapes of endpoints that have no type in @sledge/protocol
 * (the server builds them from the job store). Kept minimal and read-only.
 */
import type { EngineId } from '@sledge/protocol';

type JobId = string;

/** POST /api/v1/targets/test */
export interface TargetTestResult {
  version: string;
  schema: { exists: boolean; warehouses: number };
}

/** GET /api/v1/profiles (one per profileId). */
export interface ProfileSummary {
  profileId: number;
  jobs: number;
  engine: EngineId | string;
  maxNopm: number;
  maxTpm: number;
  maxVus: number;
}

/** GET /api/v1/profiles/:id point: NOPM and TPM at a number of active VUs. */
export interface ProfilePoint {
  jobId: JobId;
  engine: string;
  createdAt: string;
  activeVus: number;
  nopm: number;
  tpm: number;
}

export interface ProfileDetail {
  profileId: number;
  jobs: ProfilePoint[];
}

/** GET /api/v1/best: engine -> job id of its best NOPM. */
export type BestJobs = Partial<Record<string, JobId>>;

/** POST /api/v1/jobs/:id/share */
export interface ShareLink {
  token: string;
  path: string;
}
