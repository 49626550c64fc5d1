import Type from 'typebox';

/** HammerDB v6's CI diff threshold (hammerdb.md §11.1): a regression of more than 2.5% fails. */
export const DEFAULT_MAX_REGRESSION = 0.025;

/** Job field `thresholds`: pass/fail conditions on the job's result (grammar in thresholds.ts). */
export const ThresholdsField = Type.Array(
  Type.String({ minLength: 1, maxLength: 200 }),
  {
    maxItems: 50,
    description:
      "Pass/fail conditions on the result: '<metric> <op> <value>[unit]', op one of < <= > >= ==. Metrics: any numeric result field (nopm, tpm, geomean, clientCpuMsPer1000Tx ...), errors, retries, error_rate (%), and p25|p50|p75|p90|p95|p99|min|max|avg(<operation>) latency (ms; units ms, s, us). A ':abort' suffix (k6's abortOnFail) also judges the condition every few seconds during a timed run's measured window and stops the run when it fails; ':abort(30s)' starts judging 30 s into the window. E.g. 'nopm>1000', 'p95(neword)<50ms:abort', 'error_rate<1%'",
    examples: [['nopm>1000', 'p95(neword)<50ms:abort']],
  },
);

/** Job field `baseline`: a regression check of the headline against another job, or HammerDB's `jobs diff` against a profile. */
export const Baseline = Type.Object(
  {
    jobId: Type.Optional(Type.String({ pattern: '^[0-9A-Fa-f]{24}$', description: "compare the headline metric (TPROC-C NOPM, TPROC-H geomean) with this job's" })),
    profileId: Type.Optional(
      Type.Integer({ minimum: 1, description: "HammerDB jobs diff: mean NOPM over the active-VU counts both profiles ran, this job's profile (or this job alone) against that one" }),
    ),
    maxRegression: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, default: DEFAULT_MAX_REGRESSION, description: 'fail when the headline is worse than the baseline by more than this fraction (0.025 = 2.5%, HammerDB v6 diff_threshold)' }),
    ),
  },
  { additionalProperties: false, $id: 'Baseline' },
);
export type Baseline = Type.Static<typeof Baseline>;

/** A baseline with its default filled: exactly one of jobId / profileId. */
export type BaselineConfig = ({ jobId: string; profileId?: undefined } | { profileId: number; jobId?: undefined }) & { maxRegression: number };

/** The job body's threshold fields: `thresholds` and `baseline`, with their descriptions (documented once, on every workload's body). */
export const ThresholdJobFields = {
  thresholds: Type.Optional(ThresholdsField),
  baseline: Type.Optional(Baseline),
};

/** One threshold's (or the baseline check's) outcome. */
export const ThresholdResult = Type.Object(
  {
    expr: Type.String({ description: 'the condition as given (baseline: a generated line)' }),
    metric: Type.String({ description: "canonical metric: 'nopm', 'p95(neworder)', 'error_rate', 'regression(nopm)'" }),
    actual: Type.Union([Type.Number(), Type.Null()], { description: 'the job\'s value in `unit`; null when the metric is not available for this job' }),
    limit: Type.Number({ description: 'the bound in `unit`' }),
    unit: Type.String({ description: "'ms', 's', '%' or '' (a count or rate)" }),
    ok: Type.Boolean(),
    message: Type.String(),
    abortedAt: Type.Optional(Type.Number({ description: "a ':abort' condition that stopped the run: seconds into the measured window when it failed (the other results are of the window up to then)" })),
  },
  { $id: 'ThresholdResult' },
);
export type ThresholdResult = Type.Static<typeof ThresholdResult>;

/** A whole evaluation: every condition's outcome; passed = all ok. */
export const ThresholdEvaluation = Type.Object(
  {
    passed: Type.Boolean(),
    thresholdResults: Type.Array(ThresholdResult),
  },
  { $id: 'ThresholdEvaluation' },
);
export type ThresholdEvaluation = Type.Static<typeof ThresholdEvaluation>;

/** POST /api/v1/jobs/:id/thresholds: evaluate conditions against a stored job without changing it. */
export const ThresholdsCheckBody = Type.Object(
  {
    thresholds: Type.Optional(ThresholdsField),
    baseline: Type.Optional(Baseline),
  },
  { additionalProperties: false, $id: 'ThresholdsCheckBody' },
);
export type ThresholdsCheckBody = Type.Static<typeof ThresholdsCheckBody>;
