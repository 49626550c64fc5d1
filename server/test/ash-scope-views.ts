import type { AshReport, AshSample, Job, Snapshot } from '@sledge/protocol';
import { get, post, type SledgeApp } from './helpers.js';

/**
 * The views of one job's ASH that the ASH-scope tests compare: what the
 * owner reads over REST (the ASH report and every stored sample in the JSON
 * export), the job's HTML report, and its share link (the shared snapshot
 * and the shared HTML report, which need no API token).
 */
export interface AshViews {
  job: Job;
  rest: AshReport;
  samples: AshSample[];
  report: string;
  shared: Snapshot;
  sharedSamples: AshSample[];
  sharedReport: string;
}

export async function ashViews(s: SledgeApp, job: Job): Promise<AshViews> {
  const rest = await get<AshReport>(s, `/api/v1/jobs/${job.id}/ash`);
  const exp = await get<{ metrics: Record<string, { data: AshSample }[]> }>(s, `/api/v1/jobs/${job.id}/export?format=json`);
  const report = (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/report` })).body;
  const share = await post(s, `/api/v1/jobs/${job.id}/share`, {});
  if (share.status !== 201) throw new Error(`POST share ${share.status}`);
  const token = String(share.body.token);
  const shared = await get<Snapshot>(s, `/api/v1/shared/${token}`);
  const sharedReport = (await s.app.inject({ method: 'GET', url: `/api/v1/shared/${token}/report` })).body;
  return {
    job,
    rest,
    samples: (exp.metrics['ash'] ?? []).map((m) => m.data),
    report,
    shared,
    sharedSamples: ((shared.metrics['ash'] ?? []) as { data: AshSample }[]).map((m) => m.data),
    sharedReport,
  };
}

/** Every text a view carries, for searching: the REST report, the stored samples, both HTML reports, the shared snapshot. */
export function texts(v: AshViews): Record<string, string> {
  return {
    rest: JSON.stringify(v.rest),
    export: JSON.stringify(v.samples),
    report: v.report,
    shared: JSON.stringify(v.shared),
    sharedReport: v.sharedReport,
  };
}
