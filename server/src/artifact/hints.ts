/** The artifact's fixed texts and its hints for report writers and analysis (hammerdb.md §3.4). */

/** Transaction-count values above this are the active window; at or below it after the window, the shutdown tail. */
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

/** A recommended chart: its title, type, the data path and the fields that are its axes. */
type Chart = { title: string; chart_type: string; data_path: string; x?: string; y?: string; y_series?: string[]; category?: string; values?: string[] };

/** report_hints as HammerDB v6 writes them: "<db> <benchmark> Benchmark Report", the headline metrics, the charts HammerDB's report draws. */
export function reportHints(benchmark: 'TPROC-C' | 'TPROC-H', db: string) {
  const tprocc = benchmark === 'TPROC-C';
  const charts: Chart[] = tprocc
    ? [
        { title: `${db} TPROC-C Result`, chart_type: 'bar', data_path: 'result.chart_data', x: 'metric', y: 'value' },
        { title: `${db} TPROC-C Transaction Count`, chart_type: 'line', data_path: 'transaction_count.series[].points', x: 'timestamp', y: 'value' },
        { title: `${db} TPROC-C Response Times`, chart_type: 'boxplot', data_path: 'response_times.rows', category: 'name', values: ['p25_ms', 'p50_ms', 'p75_ms', 'p95_ms', 'p99_ms'] },
      ]
    : [
        { title: `${db} TPROC-H Result`, chart_type: 'bar', data_path: 'result.chart_data', x: 'metric', y: 'value' },
        { title: `${db} TPROC-H Query Times`, chart_type: 'bar', data_path: 'query_times.rows', x: 'name', y: 'total_ms' },
      ];
  charts.push(
    { title: `${db} CPU %`, chart_type: 'line', data_path: 'metrics.cpu_percent', x: 'timestamp', y_series: ['usr_pct', 'sys_pct', 'irq_pct', 'idle_pct'] },
    { title: `${db} IOPS`, chart_type: 'line', data_path: 'metrics.iops', x: 'timestamp', y: 'value' },
    { title: `${db} MB/s`, chart_type: 'line', data_path: 'metrics.mbps', x: 'timestamp', y: 'value' },
  );
  return {
    title: `${db} ${benchmark} Benchmark Report`,
    intended_use: 'Render a benchmark report, summary tables and charts, or a public result page; the figures are the job\'s own, not an audited result.',
    primary_result_metrics: tprocc ? (['NOPM', 'TPM'] as ['NOPM', 'TPM']) : (['geomean_seconds', 'total_query_time_seconds'] as ['geomean_seconds', 'total_query_time_seconds']),
    recommended_charts: charts,
    notes: [
      'TPROC-C: the last, low transaction_count values can be the shutdown tail at the end of the test, not steady-state throughput.',
      'Headings use database_display; database is HammerDB\'s internal name of the database.',
    ],
  };
}

/**
 * TPROC-C's analysis_hints: the active window runs from the first to the last
 * transaction count above 1000; a count at or below 1000 after it marks a
 * shutdown tail. Without such a count there is no window.
 */
export function analysisHints(points: readonly { timestamp: string; value: number }[]) {
  const first = points.findIndex((p) => p.value > ACTIVE_MIN);
  let last = -1;
  for (let i = points.length - 1; i >= 0; i--) {
    if (points[i]!.value > ACTIVE_MIN) {
      last = i;
      break;
    }
  }
  const active_window =
    first >= 0
      ? {
          available: true as const,
          start: points[first]!.timestamp,
          end: points[last]!.timestamp,
          method: 'From the first to the last transaction_count value above the shutdown-tail threshold.',
          transaction_count_min_active_value: ACTIVE_MIN as 1000,
          recommended_filter: 'Filter transaction_count, CPU, IOPS and MB/s to this active_window for charts and summaries.',
        }
      : { available: false as const, note: 'No transaction_count value above the threshold: no active TPROC-C window can be inferred.' };
  return {
    active_window,
    shutdown_tail: {
      present: first >= 0 && points.slice(last + 1).some((p) => p.value <= ACTIVE_MIN),
      threshold: ACTIVE_MIN as 1000,
      note: 'Low transaction_count, IOPS and MB/s values after active_window.end are the shutdown tail at the end of the test; leave them out of charts and summaries.',
    },
  };
}

/** TPROC-H's analysis_hints: no window from transaction counts; CPU and I/O metrics can run on past the last query. */
export function tprochAnalysisHints() {
  return {
    active_window: { available: false as const, note: 'TPROC-H infers no active window from transaction_count: report from result and query_times; the metrics can include idle samples after the run.' },
    shutdown_tail: { present: true as const, note: 'CPU, IOPS and MB/s metrics can include idle samples after the last query completed.' },
  };
}
