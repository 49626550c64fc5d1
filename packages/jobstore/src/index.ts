export { JobStore, JOB_TABLES, DEFAULT_FLUSH_MS, type JobStoreOptions } from './store.js';
export { newJobId, newShareToken } from './ids.js';
export { JobStoreOpenError, BUSY_TIMEOUT_MS } from './db.js';
export { ACTIVE_STATUSES, INTERRUPTED_ERROR, type CreateJobInput, type JobPatch } from './jobs.js';
export { DEFAULT_OUTPUT_LIMIT, MAX_OUTPUT_LIMIT, OUTPUT_HEAD_LINES, OUTPUT_TAIL_LINES, droppedNote, type OutputInput, type OutputQuery, type OutputPage, type SeqRange } from './output.js';
export type { MetricSample, MetricQuery } from './metrics.js';
export type { ProfileSummary, ProfilePoint } from './profiles.js';
export { loadMigrations, migrate, schemaVersion, MIGRATIONS_DIR, type Migration } from './migrate.js';
