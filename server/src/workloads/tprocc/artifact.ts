import type { JobStore } from '@sledge/jobstore';
import { isTproccResult, validityOfResult, type Job } from '@sledge/protocol';
import { dbOf, jobTcount, jobTiming, localTimestamp, nopmTpm } from '../../routes/hammerdb/jobs-data.js';
import { common, display } from '../../artifact/common.js';
import { analysisHints, reportHints } from '../../artifact/hints.js';
import type { TproccArtifact } from '../../artifact/schema.js';

/** TPROC-C's v6 result artifact: NOPM and TPM from the result lines, the transaction counter series, the response-time boxplots. */
export function tproccArtifact(store: JobStore, job: Job, r: string[]): TproccArtifact {
  const f = nopmTpm(r);
  const cfg = ((job.config as { tprocc?: Record<string, unknown> } | undefined)?.tprocc ?? {}) as Record<string, unknown>;
  const res = isTproccResult(job.result) ? job.result : undefined;
  const nopm = Number(f.nopm);
  const tpm = Number(f.tpm);
  const active = Number(f.activevu.split(' ')[0]) || res?.activeVus || Number(cfg['vus']) || 1;
  const tc = jobTcount(store, job);
  const points = (tc?.points ?? []).map(([t, v]) => ({ timestamp: localTimestamp(t), value: v }));
  const timing = jobTiming(store, job) ?? {};
  const hints = reportHints('TPROC-C', display(job));
  // The closed v6 envelope has no place of its own for it: the validity verdict goes into the report notes.
  const v = validityOfResult(job.result);
  if (v) hints.notes.push(`Sledge validity verdict: ${v.status}`, ...v.checks.filter((c) => c.status !== 'skip').map((c) => `Validity ${c.status}: ${c.title}: ${c.detail}`));
  return {
    ...common(store, job),
    report_hints: hints,
    analysis_hints: analysisHints(points),
    benchmark_config: { warehouses: res?.warehouses ?? (Number(cfg['warehouses']) || 1), virtual_users: active, rampup_minutes: Number(cfg['rampup'] ?? 0), duration_minutes: Number(cfg['duration']) || (res ? res.measuredSeconds / 60 : 0) },
    result: { type: 'tproc_c_result', database_display: display(job), active_virtual_users: active, nopm, tpm, chart_data: [{ metric: 'NOPM', value: nopm }, { metric: 'TPM', value: tpm }] },
    transaction_count: { available: points.length > 0, series: tc ? [{ name: tc.name, database: dbOf(job), database_display: display(job), metric: tc.metric, points }] : [] },
    response_times: { type: 'boxplot', unit: 'milliseconds', rows: Object.entries(timing).map(([name, t]) => ({ name, ...t })) },
  };
}
