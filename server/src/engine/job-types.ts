import type { Driver } from '@sledge/core';
import type { JobConfig } from '@sledge/protocol';
import type { VuLoopPreference } from '../shared/messages.js';
import type { JobContext } from './job-context.js';
import type { StopToken } from './stop.js';
import type { JobSamplers } from '../runner/samplers/job-samplers.js';
import type { PlaceVus } from '../runner/vu-host.js';

/** What a job body gets from the engine. */
export interface JobEnv {
  ctx: JobContext;
  /** The full configuration, secrets included (never stored). */
  cfg: JobConfig;
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
export type JobBody = (env: JobEnv) => Promise<'completed' | 'stopped'>;

/** What a job that never uses its target (datagen: files only) gets from the engine: no driver, no database. */
export interface FileJobEnv {
  ctx: JobContext;
  cfg: JobConfig;
  stop: StopToken;
  generator: 'auto' | 'native' | 'typescript';
}

/** A file-only job body. */
export type FileJobBody = (env: FileJobEnv) => Promise<'completed' | 'stopped'>;
