import type { Job } from '@sledge/protocol';

/** The artifact's fixed texts and its hints for report writers and analysis (hammerdb.md §3.4). */

/** Transaction-count values at or above this are the active window; at or below it after the window, the shutdown tail. */
export const ACTIVE_MIN = 1000;

export function disclaimer() {
  return {
    result_type: 'HammerDB result artifact' as const,
    audited: false as const,
    text: 'This result was produced by an open-source benchmark workload derived from a TPC specification. It is not audited and is not a TPC result: it must not be compared with published TPC results.',
    tpc_trademarks: 'TPC, TPC-C and TPC-H are trademarks of the Transaction Processing Performance Council.',
    hammerdb_copyright: 'HammerDB is copyright Steve Shaw and the HammerDB contributors; Sledge reproduces its result format.',
    learn_more_tpc: 'https://www.tpc.org/' as const,
    learn_more_hammerdb: 'https://www.hammerdb.com/' as const,
  };
}

export function reportHints(job: Job, benchmark: 'TPROC-C' | 'TPROC-H', db: string) {
  const tprocc = benchmark === 'TPROC-C';
  return {
    title: `${db} ${benchmark} Result ${job.id}`,
    intended_use: 'Render a benchmark report or compare runs; the figures are the job\'s own, not an audited result.',
    primary_result_metrics: tprocc ? ['nopm', 'tpm'] : ['geomean_seconds', 'total_query_time_seconds'],
    recommended_charts: tprocc
      ? [
          { title: 'NOPM and TPM', chart_type: 'bar', data_path: 'result.chart_data' },
          { title: 'Transaction count', chart_type: 'line', data_path: 'transaction_count.series' },
          { title: 'Response time distribution', chart_type: 'boxplot', data_path: 'response_times.rows' },
          { title: 'CPU', chart_type: 'line', data_path: 'metrics.cpu_percent' },
        ]
      : [
          { title: 'Geomean and query time', chart_type: 'bar', data_path: 'result.chart_data' },
          { title: 'Query times', chart_type: 'bar', data_path: 'query_times.rows' },
          { title: 'CPU', chart_type: 'line', data_path: 'metrics.cpu_percent' },
        ],
    notes: tprocc
      ? ['NOPM counts new orders per minute over the timed window; TPM is the database\'s commit+rollback rate.', 'Box plots use min, p25, p50, p75 and p99 (the upper whisker).']
      : ['Geomean is the geometric mean of the query times that returned rows, in seconds.'],
  };
}

/** The active window of a transaction-count series (values >= 1000) and whether a shutdown tail (values <= 1000 after it) follows. */
export function analysisHints(points: readonly { timestamp: string; value: number }[]) {
  const first = points.findIndex((p) => p.value >= ACTIVE_MIN);
  let last = -1;
  for (let i = points.length - 1; i >= 0; i--) {
    if (points[i]!.value >= ACTIVE_MIN) {
      last = i;
      break;
    }
  }
  const available = first >= 0;
  return {
    active_window: {
      available,
      start: available ? points[first]!.timestamp : null,
      end: available ? points[last]!.timestamp : null,
      method: 'transaction_count_threshold',
      transaction_count_min_active_value: ACTIVE_MIN as 1000,
    },
    shutdown_tail: { present: available && points.slice(last + 1).some((p) => p.value <= ACTIVE_MIN), threshold: ACTIVE_MIN as 1000 },
  };
}
