import type { Driver } from '@sledge/core';
import type { ResultOf, WorkloadConfig } from '@sledge/protocol';
import type { VuLoopPreference } from '../shared/messages.js';
import type { JobContext } from './job-context.js';
import type { StopToken } from './stop.js';
import type { JobSamplers } from '../runner/samplers/job-samplers.js';
import type { PlaceVus } from '../runner/vu-host.js';

/**
 * What a job body gets from the engine, typed by its workload's
 * configuration `C` (TproccJobConfig ...): `cfg` is that configuration and
 * `ctx.result` takes that workload's result. The engine picks the body by
 * `cfg.workload` (workloads/registry.ts), so a body only ever sees its own
 * workload's jobs.
 */
export interface JobEnv<C extends WorkloadConfig = WorkloadConfig> {
  ctx: JobContext<ResultOf<C>>;
  /** The full configuration, secrets included (never stored). */
  cfg: C;
  driver: Driver;
  stop: StopToken;
  cpus: number;
  /** Row generator preference for builds. */
  generator: 'auto' | 'native' | 'typescript';
  /** VU loop preference for runs (native loop where the driver has one, or TypeScript). */
  vuLoop?: VuLoopPreference;
  /** Test hook: load the native VU loop from this file instead of worker-native's build. */
  pgVuAddonPath?: string;
  /** Keys of the workload's options the request gave explicitly (others are defaults). */
  explicit: ReadonlySet<string>;
  /** The job's session tag (core newSessionTag): its VU sessions are named sledge-vu-<n>~<tag> and its ASH counts only those as its VUs. */
  sessionTag?: string;
  /** ASH and CPU samplers running beside the job (builds and runs). */
  samplers: JobSamplers | null;
  /** Scale-out: places a run's VUs on replicas (present when the server is connected to NATS). */
  placeVus?: PlaceVus;
}

/** A job body: resolves when the job ends; the engine sets the final status. Returns 'stopped' when it ended on a stop request. */
export type JobBody<C extends WorkloadConfig = WorkloadConfig> = (env: JobEnv<C>) => Promise<'completed' | 'stopped'>;

/** What a job that never uses its target (datagen: files only) gets from the engine: no driver, no database. */
export interface FileJobEnv<C extends WorkloadConfig = WorkloadConfig> {
  ctx: JobContext<ResultOf<C>>;
  cfg: C;
  stop: StopToken;
  generator: 'auto' | 'native' | 'typescript';
}

/** A file-only job body. */
export type FileJobBody<C extends WorkloadConfig = WorkloadConfig> = (env: FileJobEnv<C>) => Promise<'completed' | 'stopped'>;
