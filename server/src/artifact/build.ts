import type { JobStore } from '@sledge/jobstore';
import { SledgeError, workloadDef, type Job } from '@sledge/protocol';
import { hasResult, jobResult } from '../routes/hammerdb/jobs-data.js';
import { workloadReport } from '../workloads/index.js';
import type { JobArtifact } from './schema.js';

/**
 * The v6 JSON result artifact (hammerdb.md §3.4) of a Sledge run: HammerDB's
 * field names and nesting, real JSON numbers, nothing secret (the artifact
 * carries figures, not the connection). The common parts are common.ts's;
 * the result sections come from the job's workload (WorkloadReport.artifact).
 */

/** The artifact of a run with a result; a SledgeError for any other job (HammerDB's summary has nothing for them). */
export function buildArtifact(store: JobStore, job: Job): JobArtifact {
  const r = jobResult(store, job);
  if (job.type !== 'run' || !hasResult(r)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `Jobid ${job.id} has no test result: the result artifact is made from a benchmark run with a result (this job is a ${job.type}, ${job.status})`, { field: 'id' });
  }
  const artifact = workloadReport(job.workload)?.artifact;
  if (!artifact) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `Jobid ${job.id} is a ${workloadDef(job.workload)?.display ?? job.workload} run: HammerDB's result artifact has a form for TPROC-C and TPROC-H runs only`, { field: 'id' });
  }
  return artifact(store, job, r);
}
