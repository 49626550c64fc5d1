import type { JobStore } from '@sledge/jobstore';
import type { AshSample, Snapshot } from '@sledge/protocol';
import { ashVisible, type AshAudience } from './ash-visibility.js';

/** Lines of output a snapshot carries; older lines are paged through REST. */
export const SNAPSHOT_OUTPUT_LINES = 5000;
const METRIC_CAP = 20000;

/**
 * Everything the store holds for a job, as the UI needs it to draw a page.
 * A 'public' snapshot (share links) carries only the ASH samples the public
 * may see (ash-visibility.ts).
 */
export function buildSnapshot(store: JobStore, jobId: string, audience: AshAudience = 'owner'): Snapshot {
  const job = store.getJob(jobId);
  if (!job) throw new Error(`job ${jobId} not found`);
  const visible = ashVisible(job, audience);
  const total = store.getOutput(jobId, { limit: 1 }).total;
  const out = store.getOutput(jobId, { afterSeq: Math.max(0, total - SNAPSHOT_OUTPUT_LINES), limit: SNAPSHOT_OUTPUT_LINES });
  const tc = store.getTcount(jobId);
  const metrics: Record<string, unknown[]> = {};
  for (const kind of store.metricKinds(jobId)) metrics[kind] = store.getMetrics(jobId, kind, { limit: METRIC_CAP, newest: true });
  if (visible && metrics['ash']) metrics['ash'] = (metrics['ash'] as { data: unknown }[]).filter((m) => visible(m.data as AshSample));
  const progress = store.getProgress(jobId);
  return {
    job,
    seq: 0,
    output: out.lines,
    outputTotal: out.total,
    engine: tc.engine,
    client: tc.client,
    latency: store.getLatency(jobId),
    vus: store.getVus(jobId),
    ...(progress ? { progress } : {}),
    timings: store.getTimings(jobId),
    metrics,
    ...(store.getCheck(jobId).length ? { check: store.getCheck(jobId) } : {}),
  };
}
