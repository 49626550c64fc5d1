import { Type } from '@sledge/protocol';

/**
 * HammerDB v6.0's result artifact (`jobs?jobid=ID&summaryjson`,
 * `jobs ID save`, schema "hammerdb-job-report-v1", hammerdb.md §3.4): its
 * field set with HammerDB's names and nesting, real JSON numbers. The
 * envelope sections are closed (no extra keys), as strict consumers of the
 * artifact decode them; TPROC-C reports carry transaction_count and
 * response_times, TPROC-H reports query_times.
 */

const Closed = { additionalProperties: false } as const;
const Timestamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', description: "local 'YYYY-MM-DD HH:MM:SS', as HammerDB stores it" });
const Point = Type.Object({ timestamp: Timestamp, value: Type.Number() }, Closed);

export const ArtifactEnvelope = Type.Object(
  {
    type: Type.Literal('hammerdb-result-json'),
    schema: Type.Literal('hammerdb-job-report-v1'),
    source: Type.String(),
    generated_by: Type.String(),
    visibility: Type.Literal('public'),
    redacted: Type.Literal(true),
  },
  Closed,
);

export const ArtifactDisclaimer = Type.Object(
  {
    result_type: Type.Literal('HammerDB result artifact'),
    audited: Type.Literal(false),
    text: Type.String({ pattern: 'not audited[\\s\\S]*not a TPC result|not a TPC result[\\s\\S]*not audited' }),
    tpc_trademarks: Type.String(),
    hammerdb_copyright: Type.String(),
    learn_more_tpc: Type.Literal('https://www.tpc.org/'),
    learn_more_hammerdb: Type.Literal('https://www.hammerdb.com/'),
  },
  Closed,
);

/** A recommended chart: where its data is and which fields are its axes (x/y, y_series, or a boxplot's category and values). */
const Chart = Type.Object(
  {
    title: Type.String(),
    chart_type: Type.String(),
    data_path: Type.String(),
    x: Type.Optional(Type.String()),
    y: Type.Optional(Type.String()),
    y_series: Type.Optional(Type.Array(Type.String())),
    category: Type.Optional(Type.String()),
    values: Type.Optional(Type.Array(Type.String())),
  },
  Closed,
);

export const ArtifactReportHints = Type.Object(
  {
    title: Type.String(),
    intended_use: Type.String(),
    primary_result_metrics: Type.Union([Type.Tuple([Type.Literal('NOPM'), Type.Literal('TPM')]), Type.Tuple([Type.Literal('geomean_seconds'), Type.Literal('total_query_time_seconds')])]),
    recommended_charts: Type.Array(Chart),
    notes: Type.Array(Type.String()),
  },
  Closed,
);

/** No active window: TPROC-H, or a TPROC-C run without transaction counts above the threshold. */
const NoWindow = Type.Object({ available: Type.Literal(false), note: Type.String() }, Closed);

/** TPROC-C: the active window is the first to the last transaction count above 1000; lower counts after it are the shutdown tail. */
export const TproccAnalysisHints = Type.Object(
  {
    active_window: Type.Union([
      Type.Object(
        {
          available: Type.Literal(true),
          start: Timestamp,
          end: Timestamp,
          method: Type.String(),
          transaction_count_min_active_value: Type.Literal(1000),
          recommended_filter: Type.String(),
        },
        Closed,
      ),
      NoWindow,
    ]),
    shutdown_tail: Type.Object({ present: Type.Boolean(), threshold: Type.Literal(1000), note: Type.String() }, Closed),
  },
  Closed,
);

/** TPROC-H: no window from transaction counts; the metrics may hold idle samples after the queries. */
export const TprochAnalysisHints = Type.Object({ active_window: NoWindow, shutdown_tail: Type.Object({ present: Type.Literal(true), note: Type.String() }, Closed) }, Closed);

export const ArtifactJob = Type.Object(
  {
    jobid: Type.String({ pattern: '^[0-9A-F]{24}$' }),
    hdb_version: Type.String(),
    database: Type.String(),
    database_display: Type.String(),
    release: Type.String({ description: 'database version, from DBVersion:' }),
    benchmark: Type.Union([Type.Literal('TPROC-C'), Type.Literal('TPROC-H')]),
    timestamp: Timestamp,
  },
  Closed,
);

export const TproccConfig = Type.Object(
  { warehouses: Type.Integer({ minimum: 1 }), virtual_users: Type.Integer({ minimum: 1 }), rampup_minutes: Type.Number({ minimum: 0 }), duration_minutes: Type.Number({ exclusiveMinimum: 0 }) },
  Closed,
);
export const TprochConfig = Type.Object({ scale_factor: Type.Number({ exclusiveMinimum: 0 }) }, Closed);

const SYSTEM_FIELDS = ['hostname', 'cpumodel', 'cpucount', 'system_vendor', 'system_type', 'os_name', 'memory', 'nic', 'storage', 'cloud_instance', 'other_software', 'extra'] as const;
/** The database host's JOBSYSTEM row: its non-empty fields as strings (cpucount too, as HammerDB writes it), or why there is none. */
export const ArtifactSystem = Type.Union([
  Type.Object({ available: Type.Literal(true), ...Object.fromEntries(SYSTEM_FIELDS.map((f) => [f, Type.Optional(Type.String({ minLength: 1 }))])) }, Closed),
  Type.Object({ available: Type.Literal(false), message: Type.String() }, Closed),
]);

const ChartDatum = Type.Object({ metric: Type.String(), value: Type.Number() }, Closed);

export const TproccResultSection = Type.Object(
  {
    type: Type.Literal('tproc_c_result'),
    database_display: Type.String(),
    active_virtual_users: Type.Integer({ minimum: 1 }),
    nopm: Type.Number(),
    tpm: Type.Number(),
    chart_data: Type.Array(ChartDatum, { minItems: 2, maxItems: 2 }),
  },
  Closed,
);

export const TprochResultSection = Type.Object(
  {
    type: Type.Literal('tproc_h_result'),
    database_display: Type.String(),
    queries: Type.Integer({ minimum: 1 }),
    query_sets: Type.Integer({ minimum: 1 }),
    geomean_seconds: Type.Number(),
    total_query_time_seconds: Type.Number(),
    chart_data: Type.Array(ChartDatum, { minItems: 2, maxItems: 2 }),
  },
  Closed,
);

export const TransactionCount = Type.Object({
  available: Type.Boolean(),
  series: Type.Array(Type.Object({ name: Type.String(), database: Type.String(), database_display: Type.String(), metric: Type.String(), points: Type.Array(Point) }, Closed)),
});

export const TIMING_ROW_FIELDS = ['elapsed_ms', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p99_ms', 'p95_ms', 'p75_ms', 'p50_ms', 'p25_ms', 'sd', 'ratio_pct'] as const;
export const ResponseTimes = Type.Object({
  type: Type.Literal('boxplot'),
  unit: Type.Literal('milliseconds'),
  rows: Type.Array(Type.Object({ name: Type.String(), ...Object.fromEntries(TIMING_ROW_FIELDS.map((f) => [f, Type.Number()])) }, Closed)),
});

/** VU 1's query times in the order it ran them; a row's name is the query number ("14"). */
export const QueryTimes = Type.Object(
  {
    type: Type.Literal('bar'),
    unit: Type.Literal('milliseconds'),
    rows: Type.Array(Type.Object({ name: Type.String({ pattern: '^[1-9][0-9]*$' }), total_ms: Type.Number(), seconds: Type.Number() }, Closed)),
  },
  Closed,
);

export const ArtifactMetrics = Type.Object({
  available: Type.Boolean(),
  cpu_percent: Type.Array(Type.Object({ timestamp: Timestamp, usr_pct: Type.Number(), sys_pct: Type.Number(), irq_pct: Type.Number(), idle_pct: Type.Number() }, Closed)),
  iops: Type.Array(Point),
  mbps: Type.Array(Point),
});

const Common = {
  schema: Type.Literal('hammerdb-job-report-v1'),
  description: Type.String(),
  artifact: ArtifactEnvelope,
  disclaimer: ArtifactDisclaimer,
  report_hints: ArtifactReportHints,
  job: ArtifactJob,
  system: ArtifactSystem,
  metrics: ArtifactMetrics,
};

export const TproccArtifact = Type.Object(
  { ...Common, analysis_hints: TproccAnalysisHints, benchmark_config: TproccConfig, result: TproccResultSection, transaction_count: TransactionCount, response_times: ResponseTimes },
  { ...Closed, $id: 'TproccArtifact' },
);
export const TprochArtifact = Type.Object({ ...Common, analysis_hints: TprochAnalysisHints, benchmark_config: TprochConfig, result: TprochResultSection, query_times: QueryTimes }, { ...Closed, $id: 'TprochArtifact' });

/** The v6 JSON result artifact of a TPROC-C or TPROC-H run. */
export const JobArtifact = Type.Union([TproccArtifact, TprochArtifact], { $id: 'JobArtifact' });
export type TproccArtifact = Type.Static<typeof TproccArtifact>;
export type TprochArtifact = Type.Static<typeof TprochArtifact>;
export type JobArtifact = Type.Static<typeof JobArtifact>;
