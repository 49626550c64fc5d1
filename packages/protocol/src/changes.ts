import Type from 'typebox';

/**
 * What changed between two runs (issue 34 item 5): the engine settings each
 * run recorded at its start, the per-statement counters of its measured
 * window where the engine keeps them, the TPROC-H plans whose shape changed,
 * and a regression verdict that uses the runs' measured spread.
 */

/** The job metric kinds that hold them (one sample each per run job). */
export const CHANGE_METRICS = { settings: 'engine-settings', statements: 'statement-stats' } as const;

/** One engine setting as the run's session saw it. */
export const EngineSetting = Type.Object(
  {
    name: Type.String(),
    value: Type.String(),
    unit: Type.Optional(Type.String({ description: 'the unit of value where the engine reports one (PostgreSQL: kB, 8kB, ms ...)' })),
    source: Type.Optional(Type.String({ description: "where the value comes from where the engine says (PostgreSQL: default, configuration file, database, user ...; DuckDB: the setting's scope)" })),
  },
  { $id: 'EngineSetting' },
);
export type EngineSetting = Type.Static<typeof EngineSetting>;

/** The settings a run recorded at its start, or why there are none. */
export const EngineSettingsRecord = Type.Object(
  {
    ts: Type.Number({ description: 'when they were read (unix ms)' }),
    source: Type.String({ description: 'what they were read from (pg_settings, SHOW GLOBAL VARIABLES, pragmas ...)' }),
    settings: Type.Array(EngineSetting),
    withheld: Type.Array(Type.String(), { description: 'names of settings left out because their name or value can hold a secret (passwords, keys, connection strings): their values are never stored' }),
    unavailable: Type.Optional(Type.String({ description: 'why no settings were recorded' })),
  },
  { $id: 'EngineSettingsRecord' },
);
export type EngineSettingsRecord = Type.Static<typeof EngineSettingsRecord>;

/** One statement's counters over a run's measured window (the difference of two snapshots). */
export const StatementStat = Type.Object(
  {
    id: Type.String({ description: "the engine's statement id (PostgreSQL queryid, MySQL/MariaDB digest)" }),
    text: Type.String({ description: 'the normalised statement text (literals replaced by placeholders)' }),
    calls: Type.Number({ minimum: 0 }),
    totalMs: Type.Number({ minimum: 0 }),
    meanMs: Type.Number({ minimum: 0 }),
  },
  { $id: 'StatementStat' },
);
export type StatementStat = Type.Static<typeof StatementStat>;

export const StatementStatsRecord = Type.Object(
  {
    ts: Type.Number(),
    source: Type.String({ description: 'pg_stat_statements, performance_schema.events_statements_summary_by_digest ...' }),
    windowMs: Type.Number({ minimum: 0, description: 'between the two snapshots' }),
    top: Type.Integer({ minimum: 1, description: 'statements kept: the top N by time in the window' }),
    statements: Type.Array(StatementStat),
    unavailable: Type.Optional(Type.String({ description: 'why there are no statement statistics ("not available: pg_stat_statements not installed")' })),
  },
  { $id: 'StatementStatsRecord' },
);
export type StatementStatsRecord = Type.Static<typeof StatementStatsRecord>;

export const SettingChange = Type.Object({
  name: Type.String(),
  a: Type.Union([Type.String(), Type.Null()], { description: "the value in job A with its unit (null: A's engine has no such setting)" }),
  b: Type.Union([Type.String(), Type.Null()]),
  sourceA: Type.Optional(Type.String()),
  sourceB: Type.Optional(Type.String()),
});
export type SettingChange = Type.Static<typeof SettingChange>;

export const StatementChange = Type.Object({
  id: Type.String(),
  text: Type.String(),
  callsA: Type.Number(),
  callsB: Type.Number(),
  meanMsA: Type.Union([Type.Number(), Type.Null()], { description: 'null: the statement did not run in A' }),
  meanMsB: Type.Union([Type.Number(), Type.Null()]),
  change: Type.Union([Type.Number(), Type.Null()], { description: '(meanMsB - meanMsA) / meanMsA; null when one side did not run it' }),
});
export type StatementChange = Type.Static<typeof StatementChange>;

export const PlanChange = Type.Object({
  query: Type.Integer(),
  planA: Type.String(),
  planB: Type.String(),
});
export type PlanChange = Type.Static<typeof PlanChange>;

export const RunSpread = Type.Object({
  jobId: Type.String(),
  /** Coefficient of variation of the headline over the repeats (sd / mean). */
  cv: Type.Number(),
  repeats: Type.Integer({ minimum: 2 }),
  how: Type.String({ description: 'where the repeats come from' }),
});
export type RunSpread = Type.Static<typeof RunSpread>;

export const RegressionVerdict = Type.Object({
  metric: Type.String({ description: "the workload's headline field (nopm, qphh ...)" }),
  a: Type.Union([Type.Number(), Type.Null()]),
  b: Type.Union([Type.Number(), Type.Null()]),
  /** (b - a) / a, signed so that a positive value is better when lower is better too. */
  change: Type.Union([Type.Number(), Type.Null()]),
  noise: Type.Union([Type.Number(), Type.Null()], { description: 'the relative change the measured spread explains (2 × √(cvA² + cvB²))' }),
  verdict: Type.Union([Type.Literal('regression'), Type.Literal('improvement'), Type.Literal('within-noise'), Type.Literal('unknown')]),
  spread: Type.Array(RunSpread),
  message: Type.String(),
});
export type RegressionVerdict = Type.Static<typeof RegressionVerdict>;

/** GET /compare/changes?jobs=A,B */
export const JobChanges = Type.Object(
  {
    a: Type.String(),
    b: Type.String(),
    settings: Type.Object({
      differ: Type.Array(SettingChange),
      compared: Type.Integer({ description: 'settings present in either run' }),
      unavailable: Type.Optional(Type.String({ description: 'why settings do not compare (a run recorded none)' })),
    }),
    statements: Type.Object({
      moved: Type.Array(StatementChange),
      unavailable: Type.Optional(Type.String()),
    }),
    plans: Type.Object({
      changed: Type.Array(PlanChange),
      compared: Type.Integer({ description: 'queries with a stored plan in both runs' }),
    }),
    verdict: RegressionVerdict,
  },
  { $id: 'JobChanges' },
);
export type JobChanges = Type.Static<typeof JobChanges>;
