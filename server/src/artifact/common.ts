import type { JobStore } from '@sledge/jobstore';
import type { Job } from '@sledge/protocol';
import { jobMetrics, jobSystem, bmOf, dbOf, dbVersion, jobTimestamp, localTimestamp } from '../routes/hammerdb/jobs-data.js';
import { VERSION } from '../version.js';
import { disclaimer } from './hints.js';
import type { TproccArtifact } from './schema.js';

/**
 * The parts of the v6 JSON result artifact (hammerdb.md §3.4) every
 * workload's has: envelope, disclaimer, job, system and CPU metrics. The
 * result sections are the workload's (workloads/<id>/artifact.ts).
 */

/** HammerDB's display name of a database (MSSQLServer shows as SQL Server). */
export const display = (job: Job) => (dbOf(job) === 'MSSQLServer' ? 'SQL Server' : dbOf(job));

export function common(store: JobStore, job: Job) {
  const benchmark = bmOf(job) === 'TPC-C' ? 'TPROC-C' : 'TPROC-H';
  const sys = jobSystem(store, job);
  const metrics = jobMetrics(store, job);
  const ts = (ms: number) => localTimestamp(ms);
  return {
    schema: 'hammerdb-job-report-v1' as const,
    description: `HammerDB ${benchmark} result for job ${job.id} on ${display(job)}, produced by Sledge ${VERSION} in HammerDB v6.0's hammerdb-job-report-v1 format`,
    artifact: { type: 'hammerdb-result-json' as const, schema: 'hammerdb-job-report-v1' as const, source: 'Sledge', generated_by: 'Sledge jobs summaryjson', visibility: 'public' as const, redacted: true as const },
    disclaimer: disclaimer(),
    job: { jobid: job.id, hdb_version: 'v6.0', database: dbOf(job), database_display: display(job), release: dbVersion(store, job), benchmark: benchmark as 'TPROC-C' | 'TPROC-H', timestamp: jobTimestamp(job) },
    // HammerDB's JOBSYSTEM row: the non-empty fields, every one a string; or why there is none.
    system: (sys && Object.keys(sys).length ? { available: true as const, ...sys } : { available: false as const, message: 'Jobid has no system data' }) as TproccArtifact['system'],
    metrics: {
      available: metrics.length > 0,
      cpu_percent: metrics.map((m) => ({ timestamp: ts(m.ts), usr_pct: m.usr, sys_pct: m.sys, irq_pct: m.irq, idle_pct: m.idle })),
      iops: metrics.map((m) => ({ timestamp: ts(m.ts), value: m.iops })),
      mbps: metrics.map((m) => ({ timestamp: ts(m.ts), value: m.mbps })),
    },
  };
}

