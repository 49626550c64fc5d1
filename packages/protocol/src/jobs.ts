import Type from 'typebox';
import { StringEnum } from './util.js';
import { ErrorInfo } from './errors.js';
import { EngineIdSchema } from './engines.js';
import { JobTypeSchema } from './job-base.js';
import { WorkloadIdString } from './workloads/index.js';
import { TproccResult, TX_TYPES } from './workloads/tprocc.js';
import { TprochResult } from './workloads/tproch.js';
import { ChbenchResult } from './workloads/chbench.js';
import { ScriptResult } from './workloads/script.js';
import { ThresholdResult } from './run/thresholds.js';

/** A finished job's result: its workload's own document (TPROC-C: nopm/tpm; TPROC-H: query times, geomean; CH-benCHmark: TPROC-C's plus the analytic streams'). */
export const JobResult = Type.Union([TproccResult, TprochResult, ChbenchResult, ScriptResult], { $id: 'JobResult' });
export type JobResult = Type.Static<typeof JobResult>;

/**
 * Job lifecycle.
 *
 * | from        | to                                             | when                          |
 * |-------------|------------------------------------------------|-------------------------------|
 * | queued      | connecting, stopped                            | picked up / stopped in queue  |
 * | connecting  | running, rampup, measuring, failed, stopping   | connections open              |
 * | running     | completed, failed, stopping                    | build/check/delete/test run   |
 * | rampup      | measuring, failed, stopping                    | rampup time elapsed           |
 * | measuring   | completed, failed, stopping                    | window elapsed                |
 * | stopping    | stopped, failed, completed                     | user stop / VUs wound down    |
 * | any active  | interrupted                                    | server restart found it open  |
 */
export const JOB_STATUSES = [
  'queued',
  'connecting',
  'running',
  'rampup',
  'measuring',
  'stopping',
  'completed',
  'failed',
  'stopped',
  'interrupted',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JobStatusSchema = StringEnum(JOB_STATUSES);
export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'stopped', 'interrupted'];
export const isTerminal = (s: JobStatus): boolean => TERMINAL_STATUSES.includes(s);

/** 24 uppercase hex characters, HammerDB's jobid shape. */
export const JOB_ID_PATTERN = '^[0-9A-F]{24}$';
export const JobId = Type.String({ pattern: JOB_ID_PATTERN, description: '24 uppercase hex characters' });

export const Job = Type.Object(
  {
    id: JobId,
    type: JobTypeSchema,
    workload: WorkloadIdString,
    engine: EngineIdSchema,
    status: JobStatusSchema,
    label: Type.Optional(Type.String()),
    profileId: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Optional(Type.String({ format: 'date-time' })),
    endedAt: Type.Optional(Type.String({ format: 'date-time' })),
    /** The job's configuration with every secret replaced by "********". */
    config: Type.Unknown(),
    seed: Type.Integer(),
    engineVersion: Type.Optional(Type.String()),
    clientVersion: Type.String(),
    result: Type.Optional(JobResult),
    error: Type.Optional(ErrorInfo),
    summary: Type.Optional(Type.String({ description: 'one-line outcome for lists' })),
    /** Present when the job has thresholds or a baseline: every condition held (set when the job ended). */
    passed: Type.Optional(Type.Boolean({ description: 'all thresholds and the baseline check held (absent: the job has none, or has not ended)' })),
    thresholdResults: Type.Optional(Type.Array(ThresholdResult)),
  },
  { $id: 'Job' },
);
export type Job = Type.Static<typeof Job>;

export const JobListQuery = Type.Object(
  {
    engine: Type.Optional(EngineIdSchema),
    type: Type.Optional(JobTypeSchema),
    status: Type.Optional(JobStatusSchema),
    workload: Type.Optional(WorkloadIdString),
    profileId: Type.Optional(Type.Integer({ minimum: 0 })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'text search over id, label and output summary' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);
export type JobListQuery = Type.Static<typeof JobListQuery>;

export const JobList = Type.Object({ jobs: Type.Array(Job), total: Type.Integer() });
export type JobList = Type.Static<typeof JobList>;

export const OutputLine = Type.Object({
  seq: Type.Integer(),
  vu: Type.Integer({ description: '0 = status stream, 1 = monitor, 2.. = virtual users / build workers' }),
  ts: Type.Number({ description: 'unix ms' }),
  text: Type.String(),
});
export type OutputLine = Type.Static<typeof OutputLine>;

const TxRates = Type.Object(Object.fromEntries(TX_TYPES.map((t) => [t, Type.Number()])) as Record<(typeof TX_TYPES)[number], Type.TNumber>);

/** Engine counter sample (every tcRefreshSec), HammerDB's transaction counter plus NOPM. */
export const EngineSample = Type.Object({
  ts: Type.Number(),
  tpm: Type.Number({ description: '|Δcounter| · floor(60/interval); first sample 0' }),
  nopm: Type.Number({ description: 'Δ sum(d_next_o_id) per minute over the same interval' }),
});
export type EngineSample = Type.Static<typeof EngineSample>;

/** Client-side sample every second: transactions per second by type. */
export const ClientSample = Type.Object({
  ts: Type.Number(),
  rates: TxRates,
  commits: Type.Number({ description: 'commits per second, all types' }),
  rollbacks: Type.Number(),
  errors: Type.Number(),
  phase: Type.Optional(Type.String()),
});
export type ClientSample = Type.Static<typeof ClientSample>;

export const Tcount = Type.Object({
  engine: Type.Array(EngineSample),
  client: Type.Array(ClientSample),
  tpmSource: Type.Union([Type.Literal('engine'), Type.Literal('client')]),
  refreshSec: Type.Integer(),
});
export type Tcount = Type.Static<typeof Tcount>;

/** Interval latency percentiles per transaction type (ms), every second. */
export const LatencySample = Type.Object({
  ts: Type.Number(),
  perType: Type.Record(
    Type.String(),
    Type.Object({ count: Type.Integer(), p50: Type.Number(), p95: Type.Number(), p99: Type.Number(), max: Type.Number() }),
  ),
});
export type LatencySample = Type.Static<typeof LatencySample>;

/** One time-profile row (HammerDB JOBTIMING), values in ms. vu = 0 is the summary row. */
export const TimingRow = Type.Object({
  proc: Type.String({ description: 'NEWORD, PAYMENT, DELIVERY, SLEV, OSTAT' }),
  vu: Type.Integer(),
  calls: Type.Integer(),
  minMs: Type.Number(),
  avgMs: Type.Number(),
  maxMs: Type.Number(),
  totalMs: Type.Number(),
  p25Ms: Type.Number(),
  p50Ms: Type.Number(),
  p75Ms: Type.Number(),
  p95Ms: Type.Number(),
  p99Ms: Type.Number(),
  sdMs: Type.Number(),
  ratioPct: Type.Number(),
  elapsedMs: Type.Number(),
  /** [percentile, ms] pairs from the HDR histogram, for distribution charts. */
  histogram: Type.Optional(Type.Array(Type.Tuple([Type.Number(), Type.Number()]))),
});
export type TimingRow = Type.Static<typeof TimingRow>;

export const VU_STATES = ['idle', 'connecting', 'running', 'finished', 'failed'] as const;
export type VuState = (typeof VU_STATES)[number];
export const VuStatus = Type.Object({
  vu: Type.Integer(),
  state: StringEnum(VU_STATES),
  commits: Type.Integer(),
  rollbacks: Type.Integer(),
  errors: Type.Integer(),
  warehouse: Type.Optional(Type.Integer()),
});
export type VuStatus = Type.Static<typeof VuStatus>;

/** Build progress: rows loaded per table per build worker. */
export const BuildProgress = Type.Object({
  ts: Type.Number(),
  workers: Type.Array(
    Type.Object({
      worker: Type.Integer({ description: '1 = monitor (ITEM), 2.. = build (or datagen) workers' }),
      warehouses: Type.Tuple([Type.Integer(), Type.Integer()]),
      currentWarehouse: Type.Optional(Type.Integer()),
      rows: Type.Record(Type.String(), Type.Integer()),
      done: Type.Boolean(),
    }),
  ),
  /** Rows expected per table when the build is complete. */
  expected: Type.Record(Type.String(), Type.Integer()),
  phase: Type.String({ description: 'schema | load | indexes | procedures | analyze | datagen | done' }),
});
export type BuildProgress = Type.Static<typeof BuildProgress>;

export const CheckItem = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  detail: Type.String(),
});
export type CheckItem = Type.Static<typeof CheckItem>;

/** A TPROC-C result (it has NOPM) rather than another workload's. */
export function isTproccResult(r: JobResult | undefined | null): r is TproccResult {
  return !!r && typeof r === 'object' && 'nopm' in r;
}
/** A TPROC-H result (query times, geomean). */
export function isTprochResult(r: JobResult | undefined | null): r is TprochResult {
  return !!r && typeof r === 'object' && 'queries' in r && 'geomean' in r;
}
