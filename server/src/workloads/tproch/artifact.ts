import type { JobStore } from '@sledge/jobstore';
import { isTprochResult, type Job, type TprochResult } from '@sledge/protocol';
import { tprochFigures } from '../../routes/hammerdb/jobs-data.js';
import { common, display } from '../../artifact/common.js';
import { reportHints, tprochAnalysisHints } from '../../artifact/hints.js';
import type { TprochArtifact } from '../../artifact/schema.js';

/**
 * VU 1's query times as HammerDB reads them from its "query N completed"
 * lines: every query set VU 1 ran, in the order it ran them, each row named by
 * its query number ("14").
 */
function queryRows(result: TprochResult | undefined): TprochArtifact['query_times']['rows'] {
  if (!result) return [];
  const stream = Math.min(...result.queries.map((x) => x.stream));
  return result.queries
    .filter((q) => q.stream === stream && q.error === undefined)
    .sort((a, b) => a.set - b.set || a.position - b.position)
    .map((q) => ({ name: String(q.query), total_ms: Math.round(q.seconds * 1000 * 1000) / 1000, seconds: q.seconds }));
}

/** TPROC-H's v6 result artifact: geomean and total query time, the power stream's query times. */
export function tprochArtifact(store: JobStore, job: Job, r: string[]): TprochArtifact {
  const h = tprochFigures(r);
  const res = isTprochResult(job.result) ? job.result : undefined;
  const geomean = Number(h?.geomean ?? res?.geomean ?? 0);
  const total = Number(h?.querytime ?? res?.elapsedSeconds ?? 0);
  const cfg = ((job.config as { tproch?: Record<string, unknown> } | undefined)?.tproch ?? {}) as Record<string, unknown>;
  return {
    ...common(store, job),
    report_hints: reportHints('TPROC-H', display(job)),
    analysis_hints: tprochAnalysisHints(),
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
    query_times: { type: 'bar', unit: 'milliseconds', rows: queryRows(res) },
  };
}
