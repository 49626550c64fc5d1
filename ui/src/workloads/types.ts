import type { ComponentType, ReactNode } from 'react';
import type { Capabilities, EngineId, EngineSample, Job } from '@sledge/protocol';
import type { FieldSpec, FormValue, FormValues } from '../forms/fields.js';
import type { LiveJob } from '../live/jobState.js';
import type { BuildWorkerOf } from '../util/progress.js';

/** One operation of a workload (a TPROC-C transaction type): how its series are keyed, named and coloured. */
export interface WorkloadOp {
  /** The key of its counters, rates and latency (`ClientSample.rates[id]`, `LatencySample.perType[id]`). */
  id: string;
  /** Its name in charts and legends (HammerDB's procedure name, e.g. NEWORD). */
  label: string;
  /** Its fixed colour, light and dark theme. */
  color: { light: string; dark: string };
}

/** A workload's options as form fields, and the way to and from its part of a job body. */
export interface WorkloadForm {
  /** The key of the options in a job body and in error paths (`tprocc` → `tprocc.vus`). */
  key: string;
  fields: readonly FieldSpec[];
  /** One field by name; throws for an unknown one. */
  field: (name: string) => FieldSpec;
  /** What a build needs (the Schema page). */
  buildFields: readonly string[];
  /** The run options the Run page sends (main, advanced and grouped ones). */
  runFields: readonly string[];
  /** The run options under "Advanced driver options". */
  runAdvancedFields: readonly string[];
  defaults: () => FormValues;
  /**
   * Defaults that depend on the engine, over `defaults()`, from what its
   * capabilities say (CH-benCHmark: 0 VUs where the engine runs the analytic
   * streams alone). None: the defaults are the same on every engine.
   * ../state/engine-defaults.ts applies them when the engine or workload changes.
   */
  engineDefaults?: (engine: EngineId, caps: Capabilities | undefined) => FormValues;
  /** The options object of a job body from form values (only `names` when given). */
  collect: (values: FormValues, names?: readonly string[]) => Record<string, unknown>;
  /** Form values from a stored options object (saved configurations, stored jobs). */
  toForm: (stored: unknown) => FormValues;
  /** Validate an options object as the server does, schema options against `engine` (throws protocol's SledgeError with every field error). */
  parse: (options: unknown, path: string, engine?: EngineId) => unknown;
  /**
   * The workload's schema options for an engine (TPROC-C: partitioning,
   * stored procedures, tablespaces), sent as `<key>.schema`; the Schema page
   * shows them. None when the workload has no such options.
   */
  schemaFields?: (engine: EngineId) => FieldSpec[];
  /** Every option's form key (`tprocc.vus`) with its label. */
  labels: Readonly<Record<string, string>>;
  /**
   * Options objects the job body carries beside `key`'s (CH-benCHmark:
   * `chbench` beside `tprocc`). A field named `<part>.<name>` is that part's
   * option, keyed `<part>.<name>` in forms and errors (not under `key`);
   * `collect` nests each part under its name, and `toForm` and `parse` take
   * the same nested object (./body.ts splits and joins it). None: every
   * option goes under `key`.
   */
  parts?: readonly string[];
}

/** The Run (and Schema) page's workload part: its main fields and any grouped ones (a mix), drawn with the page's `field`. */
export interface RunOptionsProps {
  /** The engine the options are for (an option its driver ignores is not shown: capabilities' workloadFeatures). */
  engine: EngineId;
  /** One option's labelled input (its error below it); `hint` replaces the schema's help text. */
  field: (name: string, hint?: string) => ReactNode;
  /** The workload's option values as typed (every option, also those of the other page). */
  values: FormValues;
  /** Set one option's value (e.g. a preset button beside a field). */
  setValue: (name: string, v: FormValue) => void;
  /** The page's field errors by form key, for options the workload draws itself (the script editor's per-script errors). */
  errors?: Readonly<Record<string, string>>;
  /** Clear one option's error (by option name, as `setValue`). */
  clearError?: (name: string) => void;
}

/** A run's plan from its stored options: what the run header's bar and the charts' time window follow. */
export interface RunPlan {
  timed: boolean;
  vus: number;
  rampupSec: number;
  durationSec: number;
  /** Test driver: operations each VU runs. */
  totalIterations: number;
  /** A timed run's planned window (rampup + measured), when its options name both. */
  windowMs?: number;
}

/** One result column of the jobs list and the compare table (NOPM, TPM ...). */
export interface ResultColumn {
  /** data-col / test id part. */
  key: string;
  title: string;
  /** The job's value, undefined without a result. */
  value: (job: Job) => number | undefined;
  /** The value as text (default: a whole number with separators). */
  format?: (v: number) => string;
  /** A smaller value is the better one (a time): compare colours its deltas the other way round. */
  lowerIsBetter?: boolean;
}

/**
 * What the UI knows about one workload: its operations (which key the
 * charts), its form, and the components pages put in their workload slots.
 * Pages find it by a job's `workload` (see ./index.ts) and stay neutral.
 */
export interface WorkloadUi {
  id: string;
  /** Display name: "TPROC-C". */
  name: string;
  /** Its operations in report order; the first is the one charts show first. */
  ops: readonly WorkloadOp[];
  form: WorkloadForm;
  /** The headline and other result figures, first = headline (the best-per-engine star sits on it). */
  resultColumns: readonly ResultColumn[];
  /** The engine counter's series (TPROC-C: NOPM and TPM per minute), overlaid on the Compare page. */
  counters: readonly { key: string; title: string; value: (s: EngineSample) => number }[];
  /** The compare table's plan cell: rampup + measured minutes, or the driver that has none. */
  planCell: (job: Job) => string;
  /** The plan column's title ("Rampup + measured (min)"). */
  planTitle: string;
  /** A finished run's outcome in a few words for lists ("30 s measured"); undefined without a result. */
  outcome: (job: Job) => string | undefined;
  /** The job's configuration in a few words (one-line summaries, confirmations). */
  summary: (job: Job, live?: LiveJob) => string[];
  /** VUs and size figures of a job for lists. */
  jobVus: (job: Job) => number | undefined;
  jobScale: (job: Job) => number | undefined;
  /** The name of the scale figure ("Warehouses"). */
  scaleTitle: string;
  /** A timed run's planned rampup + measured minutes as text, undefined for other jobs. */
  plannedText: (job: Job) => { text: string; title: string } | undefined;
  runPlan: (job: Job) => RunPlan;
  /** Seconds between the engine counter's samples. */
  refreshSec: (job: Job) => number;
  /** A build worker's bar: what it loads in the workload's tables and units (TPROC-C: ITEM, warehouse ranges) and its expected rows. */
  buildWorker: BuildWorkerOf;
  /** The Run page's workload fields (main grid and grouped fields). */
  RunOptions: ComponentType<RunOptionsProps>;
  /** The Schema page's build fields, when the workload draws them itself (else a grid of `form.buildFields`). */
  BuildOptions?: ComponentType<RunOptionsProps>;
  /**
   * A run's progress for the run header when its plan is not timed and not
   * counted in VU transactions (TPROC-H: queries done of those planned); the
   * share done 0..1 and what it counts.
   */
  runDone?: (live: LiveJob) => { done: number; text: string };
  /**
   * The Compare page's series part for jobs of this workload (TPROC-H: query
   * by query ratios), drawn in place of the counter, throughput and latency
   * overlays; the jobs come base first.
   */
  CompareCharts?: ComponentType<{ jobs: Job[] }>;
  /** The result banner of a finished run. */
  ResultBanner: ComponentType<{ job: Job }>;
  /** The live figures in the run header ("NOPM now"). */
  LiveKpis: ComponentType<{ live: LiveJob }>;
  /** The run charts, live or stored. */
  RunCharts: ComponentType<{ live: LiveJob }>;
  /** The Compare page's profile section (runs sharing a profile id), when the workload has one. */
  Profiles?: ComponentType<{ selected: number | undefined }>;
}
