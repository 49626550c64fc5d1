import type { DriverFeatures, EngineId, Target } from '@sledge/protocol';
import type { Driver, Logger } from '../driver.js';

/**
 * What every workload shape shares. A workload (TPROC-C, TPROC-H,
 * CH-benCHmark ...) is one module per layer and comes in shapes: a VU
 * workload (./vu.ts: each virtual user loops over operations drawn from a
 * mix) and a stream workload (./stream.ts: each stream runs a sequence of
 * queries). A job may combine shapes on one schema (CH-benCHmark: TPROC-C's
 * VUs and analytic streams in the same window). The server has one runner
 * per shape (server/src/runner/vu-run.ts, server/src/runner/streams.ts),
 * both driven by the same phase clock and job context.
 */

/** The headline figure of a result: what the job list, profiles and compare show first. */
export interface Headline {
  /** e.g. 'nopm' */
  metric: string;
  value: number;
  /** e.g. 'NOPM' */
  unit: string;
}

/** What a workload's monitor (or a stream workload's sessions) work with. */
export interface RunContext<Options = unknown> {
  driver: Driver;
  target: Target;
  engine: EngineId;
  features: DriverFeatures;
  options: Options;
  log: Logger;
}
