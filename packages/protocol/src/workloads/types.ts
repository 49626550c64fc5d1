import type Type from 'typebox';
import type { Problems } from '../validate.js';
import type { JobType } from '../job-base.js';
import type { ThemeColor } from '../palette.js';

/**
 * What protocol knows of one workload: its options, operation names and
 * result shape, and its variant of the POST /jobs body. A workload is added
 * with registerWorkload(def) (workloads/index.ts); nothing else in protocol
 * names it.
 */
export interface WorkloadDef {
  /** The `workload` value of its job bodies and jobs ('tprocc'). */
  id: string;
  /** Display name ('TPROC-C'). */
  display: string;
  /** The body key that holds this workload's options ('tprocc'). */
  optionsKey: string;
  /**
   * Optional: other body keys holding options its jobs carry beside
   * `optionsKey`'s (CH-benCHmark: `tprocc`, the options of its transactional
   * VUs). A saved configuration keeps each under `options.<key>`
   * (savedOptionsToBody, configs.ts).
   */
  optionParts?: readonly string[];
  /** Operation names in report order: they size the shared counters and key the charts. */
  operations: readonly string[];
  /** The workload's options, complete (a body sends any part of them; defaults fill the rest). */
  options: Type.TSchema;
  /** The workload's own result document (what a finished run stores and returns). */
  result: Type.TSchema;
  /**
   * The result's headline figure: the result field holding it and its unit (the job store indexes it);
   * lowerIsBetter when a smaller value is the better result (a time), for baseline regression checks.
   */
  headline: { field: string; unit: string; lowerIsBetter?: boolean };
  /** Optional: each operation's row name in the time profile (TPROC-C: HammerDB's procedure names, neworder -> NEWORD); thresholds accept both. */
  timingNames?: Readonly<Record<string, string>>;
  /**
   * Optional: each operation's times (ms) as the result document holds them,
   * for latency thresholds of workloads that keep no time-profile rows
   * (TPROC-H: query and refresh times).
   */
  opSamples?(result: Record<string, unknown>): Record<string, number[]>;
  /**
   * Optional: a job's own operation names, for workloads whose operations
   * depend on the job's options (the script workload: one per script). Its
   * thresholds name these (`p95(<script>)`); `operations` is then empty.
   */
  jobOperations?(options: unknown): readonly string[];
  /**
   * Optional: each operation's transactions and errors over the measured
   * window as the result document holds them, for `error_rate(<operation>)`
   * thresholds; without it that form is refused for the workload.
   */
  opCounts?(result: Record<string, unknown>): Record<string, { transactions: number; errors: number }>;
  /** The one-line outcome of a result for job lists; default: the headline's value and unit. */
  summary?(result: Record<string, unknown>): string;
  /** This workload's POST /jobs body: one variant of the JobCreate union, discriminated by `workload`. */
  body: Type.TObject;
  /**
   * Body fields `parse` checks itself (with defaults and rules spanning
   * fields); the body schema's check skips them so no field is reported twice.
   */
  parsedFields: readonly string[];
  /**
   * The workload's part of a job configuration from a body already checked
   * against `body` (except `parsedFields`): options with defaults filled and
   * rules spanning fields applied. Field errors are recorded in `p` (every
   * one is reported, not the first), and undefined is returned when any step
   * failed. `type` is undefined when the body's type is itself invalid.
   */
  parse(body: Record<string, unknown>, type: JobType | undefined, p: Problems): Record<string, unknown> | undefined;
  /**
   * Optional: an older body shape in today's (TPROC-C: schema options sent
   * under `target` move to `tprocc.schema`). Applied before any check, to job
   * bodies and saved configurations alike; returns a new object.
   */
  normalize?<B>(body: B): B;
  /** Its runs go through a connect pool when the target has one (target.pool: the VU runner's pooled sessions); otherwise a pool is refused. */
  connectPool?: boolean;
  /** Its runs have a VU runner whose VUs a placement can put on replicas (run jobs' `placement`); otherwise a placement on replicas is refused. */
  replicas?: boolean;
  /**
   * Optional: target fields this workload defaults otherwise than the target
   * schema (whose defaults are TPROC-C's), per engine: TPROC-H's own SQLite
   * file, database and user. The one place the REST API (a field left out),
   * the CLI (it leaves the field out) and the dashboard (its form's default)
   * take them from (target-defaults.ts).
   */
  targetDefaults?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Optional: whether a run with these options has a measured window in which
   * thresholds marked `:abort` are judged while it runs (TPROC-C: timed runs),
   * or a string saying why not. Without it `:abort` is refused for the workload.
   */
  measuredWindow?(options: unknown): true | string;
  /** Optional: an operation's fixed colour in charts (dashboard and HTML report alike); grey when absent. */
  operationColor?(op: string): ThemeColor | undefined;
  /** Optional: the workload's table names: a target that already holds some is named by the workload they belong to (tables.ts). */
  tables?: readonly string[];
}
