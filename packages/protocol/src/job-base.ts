import Type from 'typebox';
import { StringEnum } from './util.js';
import { Target } from './targets.js';
import { ThresholdJobFields, type BaselineConfig } from './run/thresholds.js';
import { Placement } from './run/placement.js';

export const JOB_TYPES = ['build', 'check', 'delete', 'run', 'datagen'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JobTypeSchema = StringEnum(JOB_TYPES);

/** Samplers a job runs alongside its work. */
/**
 * Which sessions ASH samples: 'database' (the default) only those of the
 * target's database and its roles (plus the server's shared background
 * processes); 'server' every session of the server, other databases' and
 * other users' SQL text included (shown to authenticated viewers only: share
 * links and HTML reports keep the database's sessions).
 */
export const ASH_SCOPES = ['database', 'server'] as const;
export type AshScope = (typeof ASH_SCOPES)[number];

export const JobMetricsOptions = Type.Object(
  {
    ash: Type.Boolean({ default: true, description: 'sample active session history every second (builds and runs)' }),
    ashScope: StringEnum(ASH_SCOPES, {
      default: 'database',
      description:
        "which sessions ASH samples: 'database' (default) the target database's sessions of its roles (target user, superuser) and the server's shared background processes; 'server' every session of the server, other databases' SQL text included (share links and HTML reports still show only the database's)",
    }),
    cpu: Type.Boolean({ default: true, description: 'record CPU agent samples while the job runs' }),
    ashBackgroundIdle: Type.Boolean({
      default: false,
      description: 'also count background processes while they sleep (checkpointer write delay, vacuum delay); by default, as ASH does, only while they work',
    }),
  },
  { additionalProperties: false },
);
export type JobMetricsOptions = Type.Static<typeof JobMetricsOptions>;

/** Most datagen workers (HammerDB dgset vu: 1..1024, at most the warehouses). */
export const MAX_DATAGEN_WORKERS = 1024;
/** 'YYYY-MM-DD HH:MM:SS' */
export const GEN_TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';

/**
 * Flat-file generation (HammerDB dgset/datagenrun): one CSV file per table per
 * worker plus a load script per engine. Warehouses come from tprocc.warehouses.
 */
export const DatagenOptions = Type.Object(
  {
    dir: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'Output directory on the server; relative paths are under the server data directory. Created when missing.',
    }),
    workers: Type.Integer({
      minimum: 1,
      maximum: MAX_DATAGEN_WORKERS,
      description: 'Warehouse workers (worker 1 writes ITEM besides them); at most tprocc.warehouses',
    }),
    timestamp: Type.Optional(
      Type.String({
        pattern: GEN_TIMESTAMP_PATTERN,
        description: "Time written into c_since, h_date, o_entry_d and ol_delivery_d ('YYYY-MM-DD HH:MM:SS'); default: now at the first run, kept in the directory's manifest for resumes",
      }),
    ),
  },
  { additionalProperties: false, $id: 'DatagenOptions' },
);
export type DatagenOptions = Type.Static<typeof DatagenOptions>;

/** Fields every job body has, whatever its workload (each workload's body adds its own options key). */
export const JobCommonFields = {
  type: JobTypeSchema,
  target: Target,
  seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295, description: 'PRNG seed; random when omitted, stored with the job' })),
  label: Type.Optional(Type.String({ maxLength: 200 })),
  profileId: Type.Optional(Type.Integer({ minimum: 0, description: 'Groups run jobs into a performance profile (VU sweep)' })),
  metrics: Type.Optional(JobMetricsOptions),
  configId: Type.Optional(Type.Integer({ description: 'fill "********" target secrets from this saved configuration' })),
  ...ThresholdJobFields,
  placement: Type.Optional(Placement),
};

/** What every validated job configuration holds besides its workload's options (secrets kept: server side only). */
export interface JobConfigBase {
  type: JobType;
  target: Type.Static<typeof Target>;
  seed: number;
  label?: string;
  profileId: number;
  metrics: JobMetricsOptions;
  /** Run jobs: pass/fail conditions on the result (thresholds.ts grammar), as given. */
  thresholds?: string[];
  /** Run jobs: a regression check of the headline against a job or a profile. */
  baseline?: BaselineConfig;
  /** Run jobs of workloads with a VU runner: where the VUs run (default: this server). */
  placement?: Placement;
}
