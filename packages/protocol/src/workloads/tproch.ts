import Type from 'typebox';
import { Target } from '../targets.js';
import { DatagenOptions, JobCommonFields, type JobConfigBase, type JobType } from '../job-base.js';
import { Problems, validate } from '../validate.js';
import { StringEnum } from '../util.js';
import { Validity } from '../run/validity.js';
import type { WorkloadDef } from './types.js';
import { applyTargetDefaults } from './target-defaults.js';
import { hslHex, type ThemeColor } from '../palette.js';

/** The eight TPROC-H tables in load order (region and nation are the monitor's; hammerdb.md §10.2). */
export const TPROCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
export type TprochTable = (typeof TPROCH_TABLES)[number];

/** The 22 TPC-H queries as operation names ('q1'..'q22'), plus the two refresh functions. */
export const TPROCH_QUERIES = Array.from({ length: 22 }, (_, i) => `q${i + 1}`) as readonly string[];
export const TPROCH_OPERATIONS = [...TPROCH_QUERIES, 'rf1', 'rf2'] as const;

/** The standard scale factors (hammerdb.md §10.2); any other SF (0.01, 0.1, 2...) runs but is marked non-standard. */
export const STANDARD_SCALE_FACTORS = [1, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000] as const;
export const MAX_SCALE_FACTOR = 100000;
/** Smallest SF accepted: every table still gets at least one row (supplier = SF·10000). */
export const MIN_SCALE_FACTOR = 0.0001;
export const MAX_TPROCH_BUILD_VUS = 1024;
export const MAX_TPROCH_STREAMS = 1000;

export const isStandardScale = (sf: number): boolean => (STANDARD_SCALE_FACTORS as readonly number[]).includes(sf);

/** Query streams for a throughput test by SF (hammerdb.md §10.4); non-standard SFs take the next standard SF's count (below 1: 2). */
export function defaultStreams(sf: number): number {
  const table: [number, number][] = [
    [1, 2],
    [10, 3],
    [30, 4],
    [100, 5],
    [300, 6],
    [1000, 7],
    [3000, 8],
    [10000, 9],
    [30000, 10],
    [100000, 11],
  ];
  for (const [s, n] of table) if (sf <= s) return n;
  return 11;
}

const TprochOptionFields = {
  scaleFactor: Type.Number({
    title: 'Scale factor',
    description: 'Standard: 1, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000. Fractions (0.01, 0.1) are accepted for tests and marked non-standard.',
    default: 1,
    exclusiveMinimum: 0,
    maximum: MAX_SCALE_FACTOR,
    'x-group': 'schema',
  }),
  buildVus: Type.Integer({
    title: 'Build virtual users',
    description: 'Parallel build workers besides the monitor (HammerDB num_tpch_threads)',
    default: 1,
    minimum: 1,
    maximum: MAX_TPROCH_BUILD_VUS,
    'x-group': 'schema',
  }),
  mode: StringEnum(['power', 'throughput', 'performance'] as const, {
    title: 'Test',
    description:
      'power: one stream (RF1, 22 queries in Appendix A row 0 order, RF2); throughput: `streams` query streams in parallel plus a refresh stream; performance: a power test then a throughput test in one job, with the power, throughput and composite scores',
    default: 'power',
    'x-group': 'driver',
  }),
  streams: Type.Optional(
    Type.Integer({
      title: 'Query streams',
      description: 'Throughput test streams (throughput and performance tests); left out: the TPC-H count for the scale factor (defaultStreams: SF 1: 2, 10: 3, 30: 4, 100: 5 ...)',
      minimum: 1,
      maximum: MAX_TPROCH_STREAMS,
      'x-group': 'driver',
    }),
  ),
  querySets: Type.Integer({ title: 'Query sets per stream (HammerDB total_querysets)', default: 1, minimum: 1, maximum: 10000, 'x-group': 'driver' }),
  refresh: Type.Boolean({ title: 'Refresh functions (RF1 new sales, RF2 old sales)', default: false, 'x-group': 'driver' }),
  updateSets: Type.Integer({ title: 'Update sets (throughput refresh stream)', default: 1, minimum: 1, maximum: 10000, 'x-group': 'driver' }),
  trickleMs: Type.Integer({ title: 'Trickle refresh delay (ms before each order)', default: 1000, minimum: 0, maximum: 600000, 'x-group': 'driver' }),
  dop: Type.Integer({
    title: 'Degree of parallelism',
    description: "Per-query parallel workers (PostgreSQL max_parallel_workers_per_gather, SQL Server MAXDOP, Oracle PARALLEL, MariaDB/MySQL/SQLite: not applicable)",
    default: 2,
    minimum: 1,
    maximum: 1024,
    'x-group': 'driver',
  }),
  queryTimeoutSec: Type.Integer({ title: 'Query timeout (s); 0 = none', default: 0, minimum: 0, maximum: 604800, 'x-group': 'driver' }),
  raiseQueryError: Type.Boolean({ title: 'Raise query errors (stop the stream on a failed query)', default: false, 'x-group': 'driver' }),
  validation: Type.Boolean({ title: 'Use the TPC-H qualification (validation) parameters', default: false, 'x-group': 'driver' }),
  explain: Type.Boolean({
    title: 'Store an EXPLAIN plan of each query with the job',
    description: "Also the engine's profile of each query as it ran (operator timings), on engines that give one (DuckDB)",
    default: true,
    'x-group': 'driver',
  }),
  verbose: Type.Boolean({ title: 'Verbose output (each query text and its rows)', default: false, 'x-group': 'driver' }),
};

export const TprochOptions = Type.Object(TprochOptionFields, { additionalProperties: false, $id: 'TprochOptions', title: 'TPROC-H' });
export type TprochOptions = Type.Static<typeof TprochOptions>;

/** One query's execution in one stream and query set. */
export const TprochQueryTime = Type.Object({
  /** 0 = the power stream; 1..S the throughput streams. */
  stream: Type.Integer(),
  /** Query set, 1-based. */
  set: Type.Integer(),
  /** Query number 1..22. */
  query: Type.Integer(),
  /** Position in the stream's order, 1..22. */
  position: Type.Integer(),
  seconds: Type.Number(),
  rows: Type.Integer(),
  /** CPU seconds the Sledge process used while the query ran (all its threads): engines that run in the process (DuckDB) only. */
  cpuSeconds: Type.Optional(Type.Number()),
  error: Type.Optional(Type.String()),
});
export type TprochQueryTime = Type.Static<typeof TprochQueryTime>;

/** One stream's outcome: HammerDB's per-VU lines. */
export const TprochStreamResult = Type.Object({
  stream: Type.Integer(),
  /** Whole seconds for the stream's query sets (HammerDB "Completed n query set(s) in W seconds"). */
  seconds: Type.Integer(),
  completedSets: Type.Integer(),
  /** Geometric mean of query times returning rows (`%.5f` in lines), over its last set's queries. */
  geomean: Type.Number(),
  queriesReturningRows: Type.Integer(),
});
export type TprochStreamResult = Type.Static<typeof TprochStreamResult>;

/** One refresh (update set): RF1 and RF2 times. */
export const TprochRefreshTime = Type.Object({
  /** Update number u (1-based). */
  update: Type.Integer(),
  rf1Seconds: Type.Number(),
  rf2Seconds: Type.Number(),
  orders: Type.Integer({ description: 'orders inserted by RF1 and deleted by RF2 (SF·1500)' }),
});
export type TprochRefreshTime = Type.Static<typeof TprochRefreshTime>;

export const TprochResult = Type.Object(
  {
    mode: StringEnum(['power', 'throughput', 'performance'] as const),
    scaleFactor: Type.Number(),
    /** false for SFs outside STANDARD_SCALE_FACTORS (results are then not comparable with TPC-H's). */
    standardScale: Type.Boolean(),
    /** Query streams that ran (power: 1). */
    streams: Type.Integer(),
    dop: Type.Integer(),
    validation: Type.Boolean(),
    queries: Type.Array(TprochQueryTime),
    streamResults: Type.Array(TprochStreamResult),
    refreshes: Type.Array(TprochRefreshTime),
    /** The headline: power = the stream's geomean; throughput = the slowest stream's (HammerDB's guidance). Seconds. */
    geomean: Type.Number(),
    /** Wall-clock seconds of the measured test (power: RF1 + queries + RF2; throughput: first stream start to last stream end; performance: both tests). */
    elapsedSeconds: Type.Number(),
    /** Performance test: the power test's seconds (RF1 + queries + RF2) and the throughput test's (Ts). */
    powerSeconds: Type.Optional(Type.Number()),
    throughputSeconds: Type.Optional(Type.Number()),
    /**
     * Sledge's scores, computed by the TPC-H specification's formulas (not TPC results): the power score
     * (3600·SF / geometric mean of the power test's 22 query and 2 refresh times), the throughput score
     * (S·22·3600·SF / Ts) and the composite score √(power·throughput), per hour at SF. Absent when not computable.
     */
    powerAtSize: Type.Optional(Type.Number()),
    throughputAtSize: Type.Optional(Type.Number()),
    qphh: Type.Optional(Type.Number()),
    /** Why a TPC-H metric is absent or how it was computed ('Power@Size from queries only: refresh off'). */
    metricsNote: Type.Optional(Type.String()),
    /** Queries that failed (recorded, the stream went on unless raiseQueryError). */
    errors: Type.Integer(),
    /** Validity verdict: with validation at SF 1, each power-stream query's answer against the TPC-H answer set. */
    validity: Type.Optional(Validity),
    line: Type.String({ description: 'the headline line, e.g. "Geometric mean of query times returning rows (22) is 0.12345"' }),
  },
  { $id: 'TprochResult' },
);
export type TprochResult = Type.Static<typeof TprochResult>;

/** TPROC-H's POST /jobs body. */
export const TprochJobCreate = Type.Object(
  {
    type: JobCommonFields.type,
    workload: Type.Literal('tproch'),
    target: Target,
    tproch: Type.Optional(Type.Partial(TprochOptions)),
    seed: JobCommonFields.seed,
    label: JobCommonFields.label,
    profileId: JobCommonFields.profileId,
    metrics: JobCommonFields.metrics,
    configId: JobCommonFields.configId,
    thresholds: JobCommonFields.thresholds,
    baseline: JobCommonFields.baseline,
    placement: JobCommonFields.placement,
    datagen: Type.Optional(DatagenOptions),
  },
  { additionalProperties: false, title: 'TPROC-H job' },
);
export type TprochJobCreate = Type.Static<typeof TprochJobCreate>;

export interface TprochJobConfig extends JobConfigBase {
  workload: 'tproch';
  tproch: TprochOptions;
  datagen?: DatagenOptions;
}

/** Validate TPROC-H options and apply defaults (every field error reported at once). */
export function parseTprochOptions(value: unknown, prefix = 'tproch'): TprochOptions {
  return validate(TprochOptions, value ?? {}, prefix);
}

/**
 * TPROC-H's own database names (HammerDB's tpch_* dict defaults): the fields
 * a target leaves out take these instead of the target schema's TPROC-C
 * defaults ('tpcc', 'tprocc.sqlite'). A user is only defaulted together
 * with its password, so a given user keeps the password sent with it.
 */
export const TPROCH_TARGET_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  sqlite: { file: 'tproch.sqlite' },
  postgresql: { database: 'tpch', user: 'tpch', password: 'tpch' },
  mysql: { database: 'tpch' },
  mariadb: { database: 'tpch' },
  mssql: { database: 'tpch' },
  oracle: { user: 'tpch', password: 'tpch' },
  db2: { database: 'tpch' },
  duckdb: { file: 'tproch.duckdb' },
};

/** Put TPROC-H's default database/user/file into a target that left them out (see TPROCH_TARGET_DEFAULTS). */
export function tprochTargetDefaults<T>(target: T): T {
  if (target === null || typeof target !== 'object' || Array.isArray(target)) return target;
  return applyTargetDefaults(TPROCH_TARGET_DEFAULTS[String((target as Record<string, unknown>)['engine'])], target);
}

/** TPROC-H's normalize: the target's TPROC-H defaults (a body without a target is left for the checks to report). */
function normalizeTprochBody<B>(body: B): B {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  if (b['target'] === undefined) return body;
  return { ...b, target: tprochTargetDefaults(b['target']) } as B;
}

/** Rules across TPROC-H fields the schema cannot say. */
function checkTprochRules(o: TprochOptions, p: Problems): void {
  if (o.scaleFactor < MIN_SCALE_FACTOR) {
    p.add('tproch.scaleFactor', `scaleFactor ${o.scaleFactor} gives no supplier rows (SF·10000 < 1): use at least ${MIN_SCALE_FACTOR}`);
  }
}

function parseTprochJob(b: Record<string, unknown>, type: JobType | undefined, p: Problems): Record<string, unknown> | undefined {
  const tproch = p.check(() => parseTprochOptions(b['tproch']));
  if (tproch) checkTprochRules(tproch, p);
  let datagen: DatagenOptions | undefined;
  if (type === 'datagen') {
    if (b['datagen'] === undefined) p.add('datagen', 'datagen is required for a datagen job: give { dir, workers }');
    else datagen = p.check(() => validate(DatagenOptions, b['datagen'], 'datagen'));
  } else if (type && b['datagen'] !== undefined) {
    p.add('datagen', 'datagen applies only to jobs of type "datagen": remove it');
  }
  if (!tproch || p.any) return undefined;
  return datagen ? { tproch, datagen } : { tproch };
}

/** Query and refresh times of a result in ms, per operation (q1..q22, rf1, rf2): what latency thresholds read. Failed queries are left out. */
function tprochOpSamples(r: Record<string, unknown>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const push = (op: string, sec: unknown) => {
    if (typeof sec === 'number') (out[op] ??= []).push(sec * 1000);
  };
  for (const q of (r['queries'] as TprochQueryTime[] | undefined) ?? []) if (!q.error) push(`q${q.query}`, q.seconds);
  for (const f of (r['refreshes'] as TprochRefreshTime[] | undefined) ?? []) {
    push('rf1', f.rf1Seconds);
    push('rf2', f.rf2Seconds);
  }
  return out;
}

const REFRESH_COLORS: Record<string, ThemeColor> = {
  rf1: { light: '#4b5563', dark: '#d1d5db' },
  rf2: { light: '#1e3a5f', dark: '#93c5fd' },
};

/**
 * A fixed colour per query, spread around the colour wheel so neighbouring
 * queries differ (golden-angle steps); lighter in the dark theme. The refresh
 * functions are grey (RF1) and slate (RF2).
 */
export function tprochOpColor(op: string): ThemeColor | undefined {
  if (REFRESH_COLORS[op]) return REFRESH_COLORS[op];
  const q = /^q(\d+)$/.exec(op);
  if (!q) return undefined;
  const hue = Math.round((Number(q[1]) * 137.508) % 360);
  return { light: hslHex(hue, 62, 42), dark: hslHex(hue, 70, 66) };
}

/** The geomean in seconds, as HammerDB prints it. */
export const TPROCH: WorkloadDef = {
  id: 'tproch',
  display: 'TPROC-H',
  optionsKey: 'tproch',
  operations: TPROCH_OPERATIONS,
  options: TprochOptions,
  result: TprochResult,
  headline: { field: 'geomean', unit: 's geomean', lowerIsBetter: true },
  opSamples: tprochOpSamples,
  summary: (r) => {
    const g = Number(r['geomean']);
    const q = r['qphh'] === undefined ? '' : `, QphH ${Number(r['qphh']).toFixed(1)}`;
    const std = r['standardScale'] === false ? ' (non-standard)' : '';
    return `${String(r['mode'])} SF ${String(r['scaleFactor'])}${std}: geomean ${g.toFixed(5)} s${q}`;
  },
  body: TprochJobCreate,
  parsedFields: ['tproch', 'datagen'],
  parse: parseTprochJob,
  normalize: normalizeTprochBody,
  targetDefaults: TPROCH_TARGET_DEFAULTS,
  tables: TPROCH_TABLES,
  operationColor: tprochOpColor,
};

/** The options of a TPROC-H job (workload 'tproch'). */
export function isTprochConfig(cfg: { workload: string }): cfg is TprochJobConfig {
  return cfg.workload === 'tproch';
}
