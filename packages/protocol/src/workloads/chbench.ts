import Type from 'typebox';
import { Target } from '../targets.js';
import { JobCommonFields, type JobConfigBase, type JobType } from '../job-base.js';
import { Problems, validate } from '../validate.js';
import { isEngineId, type EngineId } from '../engines.js';
import type { ThemeColor } from '../palette.js';
import type { WorkloadDef } from './types.js';
import { applyTargetDefaults } from './target-defaults.js';
import { TPROCC_TABLES, TX_COLORS, TX_PROC, TX_TYPES, TproccOptions, TproccResult, parseTproccOptions, type TxType } from './tprocc.js';
import { tprochOpColor } from './tproch.js';
import { normalizeTproccSchema } from './tprocc-schema.js';

/**
 * CH-benCHmark (docs/chbench.md): TPROC-C's transactions and 22 analytic
 * queries on one schema in one timed window. A job carries two options
 * objects, one per shape: `tprocc` (the transactional virtual users, exactly
 * TPROC-C's options) and `chbench` (the analytic streams). CH-benCHmark
 * builds on TPROC-C: this file takes TPROC-C's options, result fields and
 * colours from tprocc.ts, one way.
 */

/** CH-benCHmark's three tables besides TPROC-C's nine. */
export const CHBENCH_EXTRA_TABLES = ['region', 'nation', 'supplier'] as const;
export const CHBENCH_TABLES = [...TPROCC_TABLES, ...CHBENCH_EXTRA_TABLES] as const;
/** The 22 analytic queries as operation names. */
export const CHBENCH_QUERIES = Array.from({ length: 22 }, (_, i) => `q${i + 1}`) as readonly string[];
export const MAX_ANALYTIC_STREAMS = 64;

export const ChbenchAnalyticOptions = Type.Object(
  {
    analyticStreams: Type.Integer({
      title: 'Analytic streams',
      description: 'Query streams looping over the 22 analytic queries beside the transactional VUs; 0 = transactions alone (the interference baseline)',
      default: 1,
      minimum: 0,
      maximum: MAX_ANALYTIC_STREAMS,
      'x-group': 'driver',
    }),
    dop: Type.Integer({
      title: 'Degree of parallelism',
      description: 'Per-query parallel workers of the analytic streams, where the engine has them (PostgreSQL max_parallel_workers_per_gather, SQL Server MAXDOP, Oracle PARALLEL, Db2 DEGREE)',
      default: 1,
      minimum: 1,
      maximum: 1024,
      'x-group': 'driver',
    }),
    queryTimeoutSec: Type.Integer({ title: 'Analytic query timeout (s); 0 = none', default: 0, minimum: 0, maximum: 604800, 'x-group': 'driver' }),
    raiseQueryError: Type.Boolean({ title: 'Raise query errors (fail the run on a failed analytic query)', default: false, 'x-group': 'driver' }),
  },
  { additionalProperties: false, $id: 'ChbenchAnalyticOptions', title: 'CH-benCHmark analytic streams' },
);
export type ChbenchAnalyticOptions = Type.Static<typeof ChbenchAnalyticOptions>;

/** One analytic query's execution. */
export const ChbenchQueryTime = Type.Object({
  /** Analytic stream, 1-based. */
  stream: Type.Integer(),
  /** Pass over the 22 queries, 1-based. */
  set: Type.Integer(),
  /** Query number 1..22. */
  query: Type.Integer(),
  /** ms after the start of the measured window (negative: during the rampup). */
  startMs: Type.Number(),
  seconds: Type.Number(),
  rows: Type.Integer(),
  /** Started and finished inside the measured window: it counts in queriesPerHour and perQuery. */
  inWindow: Type.Boolean(),
  error: Type.Optional(Type.String()),
});
export type ChbenchQueryTime = Type.Static<typeof ChbenchQueryTime>;

/** One query's times over the measured window, all streams. */
export const ChbenchQueryStats = Type.Object({
  query: Type.Integer(),
  count: Type.Integer(),
  errors: Type.Integer(),
  meanSeconds: Type.Number(),
  minSeconds: Type.Number(),
  maxSeconds: Type.Number(),
});
export type ChbenchQueryStats = Type.Static<typeof ChbenchQueryStats>;

export const ChbenchAnalyticResult = Type.Object({
  streams: Type.Integer(),
  /** Queries that started and finished in the measured window, per hour of the window. */
  queriesPerHour: Type.Number(),
  completedQueries: Type.Integer({ description: 'queries that started and finished inside the measured window, without error' }),
  errors: Type.Integer({ description: 'failed queries inside the measured window' }),
  /** Geometric mean of the window's query times (s), over queries that returned rows. */
  geomean: Type.Number(),
  perQuery: Type.Array(ChbenchQueryStats),
  /** Every query any stream ran, in the order they ended (rampup and window). */
  queries: Type.Array(ChbenchQueryTime),
});
export type ChbenchAnalyticResult = Type.Static<typeof ChbenchAnalyticResult>;

/** The transactional result of a run with 0 analytic streams on the same schema and settings: the interference figure. */
export const ChbenchInterference = Type.Object({
  baselineJobId: Type.String(),
  baselineNopm: Type.Integer(),
  /** this run's NOPM / the baseline's */
  ratio: Type.Number(),
});
export type ChbenchInterference = Type.Static<typeof ChbenchInterference>;

export const ChbenchResult = Type.Object(
  {
    ...TproccResult.properties,
    analytic: ChbenchAnalyticResult,
    interference: Type.Optional(ChbenchInterference),
  },
  { $id: 'ChbenchResult' },
);
export type ChbenchResult = Type.Static<typeof ChbenchResult>;

export const ChbenchJobCreate = Type.Object(
  {
    type: JobCommonFields.type,
    workload: Type.Literal('chbench'),
    target: Target,
    tprocc: Type.Optional(Type.Partial(TproccOptions)),
    chbench: Type.Optional(Type.Partial(ChbenchAnalyticOptions)),
    seed: JobCommonFields.seed,
    label: JobCommonFields.label,
    profileId: JobCommonFields.profileId,
    metrics: JobCommonFields.metrics,
    configId: JobCommonFields.configId,
    thresholds: JobCommonFields.thresholds,
    baseline: JobCommonFields.baseline,
  },
  { additionalProperties: false, title: 'CH-benCHmark job' },
);
export type ChbenchJobCreate = Type.Static<typeof ChbenchJobCreate>;

/** A CH-benCHmark job with every default filled in and secrets kept (server side only). */
export interface ChbenchJobConfig extends JobConfigBase {
  workload: 'chbench';
  tprocc: TproccOptions;
  chbench: ChbenchAnalyticOptions;
}

export function isChbenchConfig(cfg: { workload: string }): cfg is ChbenchJobConfig {
  return cfg.workload === 'chbench';
}

/** Its own database beside TPROC-C's, so a CH-benCHmark build never drops a TPROC-C schema it was not pointed at. */
export const CHBENCH_TARGET_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  sqlite: { file: 'chbench.sqlite' },
  postgresql: { database: 'chbench' },
  mysql: { database: 'chbench' },
  mariadb: { database: 'chbench' },
  mssql: { database: 'chbench' },
  oracle: { user: 'chbench', password: 'chbench' },
  db2: { database: 'chbench' },
  duckdb: { file: 'chbench.duckdb' },
};

function normalizeChbenchBody<B>(body: B): B {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  // TPROC-C's schema options' older shapes; CH-benCHmark's own target defaults, not TPROC-C's.
  const b = normalizeTproccSchema(body);
  const r = b as Record<string, unknown>;
  if (r['target'] === null || typeof r['target'] !== 'object' || Array.isArray(r['target'])) return b;
  return { ...r, target: applyTargetDefaults(CHBENCH_TARGET_DEFAULTS[String((r['target'] as Record<string, unknown>)['engine'])], r['target']) } as B;
}

/** The `chbench` options with defaults filled in. */
export function parseChbenchOptions(value: unknown, prefix = 'chbench'): ChbenchAnalyticOptions {
  return validate(ChbenchAnalyticOptions, value ?? {}, prefix);
}

/**
 * The `tprocc` part of a CH-benCHmark job: TPROC-C's options, except that
 * vus may be 0, the analytic streams alone without TPROC-C's VUs (TPROC-C
 * itself takes 1 or more; DuckDB, which runs no TPROC-C transactions, takes
 * 0 only).
 */
export function parseChbenchTproccOptions(value: unknown, prefix = 'tprocc', engine?: EngineId): TproccOptions {
  const noVus = value !== null && typeof value === 'object' && !Array.isArray(value) && (value as Record<string, unknown>)['vus'] === 0;
  const parsed = parseTproccOptions(noVus ? { ...(value as Record<string, unknown>), vus: 1 } : value, prefix, engine);
  return noVus ? { ...parsed, vus: 0 } : parsed;
}

function parseChbenchJob(b: Record<string, unknown>, type: JobType | undefined, p: Problems): Record<string, unknown> | undefined {
  if (type === 'datagen') p.add('type', 'CH-benCHmark has no datagen job: generate TPROC-C files with workload "tprocc"');
  if (type === 'run' && b['tprocc'] === undefined) {
    p.add('tprocc', 'tprocc is required for a run: set tprocc.vus, tprocc.rampup and tprocc.duration (minutes), or send {} to accept the defaults');
  }
  const target = b['target'] as Record<string, unknown> | undefined;
  const engine = target && isEngineId(target['engine']) ? target['engine'] : undefined;
  const tprocc = p.check(() => parseChbenchTproccOptions(b['tprocc'], 'tprocc', engine));
  const chbench = p.check(() => parseChbenchOptions(b['chbench']));
  if (tprocc) {
    if (tprocc.driver !== 'timed') p.add('tprocc.driver', 'CH-benCHmark runs the timed driver (its streams and VUs share one measured window): set tprocc.driver to "timed"');
    if (tprocc.steps) p.add('tprocc.steps', 'CH-benCHmark runs one measured window: remove tprocc.steps');
    if (tprocc.arrival) p.add('tprocc.arrival', 'CH-benCHmark runs closed-loop VUs: remove tprocc.arrival');
  }
  if (tprocc && chbench && tprocc.vus === 0 && chbench.analyticStreams === 0) {
    p.add('tprocc.vus', 'tprocc.vus 0 and chbench.analyticStreams 0 leave nothing to run: give the run VUs, analytic streams, or both');
  }
  if (!tprocc || !chbench || p.any) return undefined;
  return { tprocc, chbench };
}

/** Analytic query times in ms per query (q1..q22), inside the window: what latency thresholds read. */
function chbenchOpSamples(r: Record<string, unknown>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const a = r['analytic'] as ChbenchAnalyticResult | undefined;
  for (const q of a?.queries ?? []) if (q.inWindow && !q.error) (out[`q${q.query}`] ??= []).push(q.seconds * 1000);
  return out;
}

function chbenchOpColor(op: string): ThemeColor | undefined {
  return TX_COLORS[op as TxType] ?? tprochOpColor(op);
}

/** CH-benCHmark as protocol knows it. */
export const CHBENCH: WorkloadDef = {
  id: 'chbench',
  display: 'CH-benCHmark',
  optionsKey: 'chbench',
  optionParts: ['tprocc'],
  operations: TX_TYPES,
  options: ChbenchAnalyticOptions,
  result: ChbenchResult,
  headline: { field: 'nopm', unit: 'NOPM' },
  timingNames: TX_PROC,
  opSamples: chbenchOpSamples,
  summary: (r) => {
    const a = r['analytic'] as ChbenchAnalyticResult | undefined;
    const analytic = a ? `, ${a.streams} analytic stream(s): ${a.queriesPerHour.toFixed(1)} queries/h` : '';
    return `${String(r['nopm'])} NOPM, ${String(r['tpm'])} TPM, ${String(r['activeVus'])} VU${analytic}`;
  },
  body: ChbenchJobCreate,
  parsedFields: ['tprocc', 'chbench'],
  parse: parseChbenchJob,
  normalize: normalizeChbenchBody,
  targetDefaults: CHBENCH_TARGET_DEFAULTS,
  tables: CHBENCH_TABLES,
  operationColor: chbenchOpColor,
  measuredWindow: () => true,
};

/** A CH-benCHmark result: TPROC-C's fields and the analytic streams'. */
export function isChbenchResult(r: unknown): r is ChbenchResult {
  return !!r && typeof r === 'object' && 'nopm' in r && 'analytic' in r;
}
