import type { JobStore } from '@sledge/jobstore';
import { reportData } from './data.js';
import { configSection, engineName, jobHeading, outputSection, resultSection, workloadName } from './sections-job.js';
import { throughputSection, timingSection } from './sections-run.js';
import { ashSection, cpuSection } from './sections-metrics.js';
import { scalabilitySection } from './sections-profile.js';
import { page } from './page.js';
import { jobStart } from './timeline.js';
import { workloadReport } from '../workloads/index.js';

/**
 * One job as a self-contained HTML page: result, configuration (redacted),
 * throughput chart, the workload's own sections (TPROC-H: query times),
 * time profile, ASH and CPU, the scalability of its performance profile
 * (docs/scalability.md), the end of the log. Charts are inline SVG; the page loads nothing.
 * Throws SLEDGE_E_NOT_FOUND for an unknown job.
 */
export function renderJobReport(store: JobStore, jobId: string): string {
  const d = reportData(store, jobId);
  const t0 = jobStart(d);
  const { job } = d;
  const title = `Sledge ${workloadName(job.workload)} ${job.type} ${engineName(job.engine)} ${job.id}${job.label ? ` ${job.label}` : ''}`;
  const report = workloadReport(job.workload);
  return page(title, jobHeading(job), [
    resultSection(job, report?.figures(job)),
    ...[throughputSection(d, t0), ...(report?.sections?.(d) ?? []), timingSection(d), ashSection(d, t0), cpuSection(d, t0), scalabilitySection(store, job)].filter((s) => s !== ''),
    configSection(job),
    ...[outputSection(d)].filter((s) => s !== ''),
  ]);
}
