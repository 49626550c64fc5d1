import type { JobStore } from '@sledge/jobstore';
import { isTprochResult, isTproccResult, SledgeError, type Job, type TprochResult } from '@sledge/protocol';
import { hasResult, jobMetrics, jobResult, jobSystem, jobTcount, jobTiming, bmOf, dbOf, dbVersion, jobTimestamp, localTimestamp, nopmTpm, tprochFigures } from '../routes/hammerdb/jobs-data.js';
import { VERSION } from '../version.js';
import { analysisHints, disclaimer, reportHints } from './hints.js';
import type { JobArtifact, TproccArtifact, TprochArtifact } from './schema.js';

/**
 * The v6 JSON result artifact (hammerdb.md §3.4) of a Sledge run: HammerDB's
 * field names and nesting, real JSON numbers, nothing secret (the artifact
 * carries figures, not the connection).
 */

/** HammerDB's display name of a database (MSSQLServer shows as SQL Server). */
const display = (job: Job) => (dbOf(job) === 'MSSQLServer' ? 'SQL Server' : dbOf(job));

function common(store: JobStore, job: Job) {
  const benchmark = bmOf(job) === 'TPC-C' ? 'TPROC-C' : 'TPROC-H';
  const sys = jobSystem(store, job);
  const field = (k: string) => sys?.[k] ?? '';
  const metrics = jobMetrics(store, job);
  const ts = (ms: number) => localTimestamp(ms);
  return {
    schema: 'hammerdb-job-report-v1' as const,
    description: `HammerDB ${benchmark} result for job ${job.id} on ${display(job)}, produced by Sledge ${VERSION} in HammerDB v6.0's hammerdb-job-report-v1 format`,
    artifact: { type: 'hammerdb-result-json' as const, schema: 'hammerdb-job-report-v1' as const, source: 'Sledge', generated_by: 'Sledge jobs summaryjson', visibility: 'public' as const, redacted: true as const },
    disclaimer: disclaimer(),
    job: { jobid: job.id, hdb_version: 'v6.0', database: dbOf(job), database_display: display(job), release: dbVersion(store, job), benchmark: benchmark as 'TPROC-C' | 'TPROC-H', timestamp: jobTimestamp(job) },
    system: {
      available: sys !== undefined,
      hostname: field('hostname'),
      cpumodel: field('cpumodel'),
      cpucount: sys?.['cpucount'] ? Number(sys['cpucount']) : null,
      ...Object.fromEntries(['system_vendor', 'system_type', 'os_name', 'memory', 'nic', 'storage', 'cloud_instance', 'other_software', 'extra'].map((k) => [k, field(k)])),
    } as TproccArtifact['system'],
    metrics: {
      available: metrics.length > 0,
      cpu_percent: metrics.map((m) => ({ timestamp: ts(m.ts), usr_pct: m.usr, sys_pct: m.sys, irq_pct: m.irq, idle_pct: m.idle })),
      iops: metrics.map((m) => ({ timestamp: ts(m.ts), value: m.iops })),
      mbps: metrics.map((m) => ({ timestamp: ts(m.ts), value: m.mbps })),
    },
  };
}

function tproccArtifact(store: JobStore, job: Job, r: string[]): TproccArtifact {
  const f = nopmTpm(r);
  const cfg = ((job.config as { tprocc?: Record<string, unknown> } | undefined)?.tprocc ?? {}) as Record<string, unknown>;
  const res = isTproccResult(job.result) ? job.result : undefined;
  const nopm = Number(f.nopm);
  const tpm = Number(f.tpm);
  const active = Number(f.activevu.split(' ')[0]) || res?.activeVus || Number(cfg['vus']) || 1;
  const tc = jobTcount(store, job);
  const points = (tc?.points ?? []).map(([t, v]) => ({ timestamp: localTimestamp(t), value: v }));
  const timing = jobTiming(store, job) ?? {};
  return {
    ...common(store, job),
    report_hints: reportHints(job, 'TPROC-C', display(job)),
    analysis_hints: analysisHints(points),
    benchmark_config: { warehouses: res?.warehouses ?? (Number(cfg['warehouses']) || 1), virtual_users: active, rampup_minutes: Number(cfg['rampup'] ?? 0), duration_minutes: Number(cfg['duration']) || (res ? res.measuredSeconds / 60 : 0) },
    result: { type: 'tproc_c_result', database_display: display(job), active_virtual_users: active, nopm, tpm, chart_data: [{ metric: 'NOPM', value: nopm }, { metric: 'TPM', value: tpm }] },
    transaction_count: { available: points.length > 0, series: tc ? [{ name: tc.name, database: display(job), metric: tc.metric, points }] : [] },
    response_times: { type: 'boxplot', unit: 'milliseconds', rows: Object.entries(timing).map(([name, t]) => ({ name, ...t })) },
  };
}

/** VU 1's query times (the power stream's last query set), as HammerDB charts them. */
function queryRows(result: TprochResult | undefined): TprochArtifact['query_times']['rows'] {
  if (!result) return [];
  const first = result.queries.filter((q) => q.stream === Math.min(...result.queries.map((x) => x.stream)));
  const lastSet = Math.max(0, ...first.map((q) => q.set));
  return first
    .filter((q) => q.set === lastSet && q.error === undefined)
    .sort((a, b) => a.position - b.position)
    .map((q) => ({ name: `Query ${q.query}`, total_ms: Math.round(q.seconds * 1000 * 1000) / 1000, seconds: q.seconds }));
}

function tprochArtifact(store: JobStore, job: Job, r: string[]): TprochArtifact {
  const h = tprochFigures(r);
  const res = isTprochResult(job.result) ? job.result : undefined;
  const geomean = Number(h?.geomean ?? res?.geomean ?? 0);
  const total = Number(h?.querytime ?? res?.elapsedSeconds ?? 0);
  const cfg = ((job.config as { tproch?: Record<string, unknown> } | undefined)?.tproch ?? {}) as Record<string, unknown>;
  return {
    ...common(store, job),
    report_hints: reportHints(job, 'TPROC-H', display(job)),
    analysis_hints: analysisHints([]),
    benchmark_config: { scale_factor: res?.scaleFactor ?? Number(cfg['scaleFactor'] ?? 1) },
    result: {
      type: 'tproc_h_result',
      database_display: display(job),
      queries: Number(h?.queries) || res?.streamResults[0]?.queriesReturningRows || 1,
      query_sets: Number(h?.querysets) || res?.streamResults[0]?.completedSets || 1,
      geomean_seconds: geomean,
      total_query_time_seconds: total,
      chart_data: [
        { metric: 'Geomean', value: geomean },
        { metric: 'Query Time', value: total },
      ],
    },
    query_times: { rows: queryRows(res) },
  };
}

/** The artifact of a run with a result; a SledgeError for any other job (HammerDB's summary has nothing for them). */
export function buildArtifact(store: JobStore, job: Job): JobArtifact {
  const r = jobResult(store, job);
  if (job.type !== 'run' || !hasResult(r)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `Jobid ${job.id} has no test result: the result artifact is made from a benchmark run with a result (this job is a ${job.type}, ${job.status})`, { field: 'id' });
  }
  return bmOf(job) === 'TPC-C' ? tproccArtifact(store, job, r) : tprochArtifact(store, job, r);
}
