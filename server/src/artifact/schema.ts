import Type from 'typebox';

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

export const ArtifactReportHints = Type.Object({
  title: Type.String(),
  intended_use: Type.String(),
  primary_result_metrics: Type.Array(Type.String()),
  recommended_charts: Type.Array(Type.Object({ title: Type.String(), chart_type: Type.String(), data_path: Type.String() })),
  notes: Type.Array(Type.String()),
});

export const ArtifactAnalysisHints = Type.Object({
  active_window: Type.Object({
    available: Type.Boolean(),
    start: Type.Union([Timestamp, Type.Null()]),
    end: Type.Union([Timestamp, Type.Null()]),
    method: Type.String(),
    transaction_count_min_active_value: Type.Literal(1000),
  }),
  shutdown_tail: Type.Object({ present: Type.Boolean(), threshold: Type.Literal(1000) }),
});

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

const SYSTEM_FIELDS = ['hostname', 'cpumodel', 'system_vendor', 'system_type', 'os_name', 'memory', 'nic', 'storage', 'cloud_instance', 'other_software', 'extra'] as const;
export const ArtifactSystem = Type.Object(
  { available: Type.Boolean(), cpucount: Type.Union([Type.Integer(), Type.Null()]), ...Object.fromEntries(SYSTEM_FIELDS.map((f) => [f, Type.String()])) },
  Closed,
);

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
  series: Type.Array(Type.Object({ name: Type.String(), database: Type.String(), metric: Type.String(), points: Type.Array(Point) })),
});

export const TIMING_ROW_FIELDS = ['elapsed_ms', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p99_ms', 'p95_ms', 'p75_ms', 'p50_ms', 'p25_ms', 'sd', 'ratio_pct'] as const;
export const ResponseTimes = Type.Object({
  type: Type.Literal('boxplot'),
  unit: Type.Literal('milliseconds'),
  rows: Type.Array(Type.Object({ name: Type.String(), ...Object.fromEntries(TIMING_ROW_FIELDS.map((f) => [f, Type.Number()])) }, Closed)),
});

export const QueryTimes = Type.Object({ rows: Type.Array(Type.Object({ name: Type.String(), total_ms: Type.Number(), seconds: Type.Number() }, Closed)) });

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
  analysis_hints: ArtifactAnalysisHints,
  job: ArtifactJob,
  system: ArtifactSystem,
  metrics: ArtifactMetrics,
};

export const TproccArtifact = Type.Object(
  { ...Common, benchmark_config: TproccConfig, result: TproccResultSection, transaction_count: TransactionCount, response_times: ResponseTimes },
  { ...Closed, $id: 'TproccArtifact' },
);
export const TprochArtifact = Type.Object({ ...Common, benchmark_config: TprochConfig, result: TprochResultSection, query_times: QueryTimes }, { ...Closed, $id: 'TprochArtifact' });

/** The v6 JSON result artifact of a TPROC-C or TPROC-H run. */
export const JobArtifact = Type.Union([TproccArtifact, TprochArtifact], { $id: 'JobArtifact' });
export type TproccArtifact = Type.Static<typeof TproccArtifact>;
export type TprochArtifact = Type.Static<typeof TprochArtifact>;
export type JobArtifact = Type.Static<typeof JobArtifact>;
