import { tprochHooks, tprochStreams, type Driver, type TprochStream } from '@sledge/core';
import { sqlSet, type SqlWorkload } from '@sledge/sql';
import type { TprochJobConfig, TprochOptions } from '@sledge/protocol';
import type { JobContext } from '../../engine/job-context.js';
import type { StopToken } from '../../engine/stop.js';
import { StreamRun } from '../../runner/streams.js';

/** A TPROC-H run's streams: the generic stream runner on TPROC-H's streams and sessions. */
export type TprochRun = StreamRun<TprochOptions, TprochStream>;

/** The streams of one TPROC-H run; `o` holds the scale factor the schema has (auto-corrected). */
export function tprochRun(ctx: JobContext, cfg: TprochJobConfig, o: TprochOptions, driver: Driver, stop: StopToken): TprochRun {
  const w = tprochStreams;
  return new StreamRun(ctx, stop, {
    workload: w,
    options: o,
    seed: cfg.seed,
    sql: sqlSet(cfg.target.engine, w.sqlArea as SqlWorkload).statements(w.sqlFile),
    queryTimeoutSec: o.queryTimeoutSec,
    raiseQueryError: o.raiseQueryError,
    verbose: o.verbose,
    metricKind: 'tproch-query',
    // The engine's profile of each query beside its EXPLAIN plan (the same option): drivers whose sessions profile (DuckDB).
    ...(o.explain ? { profileMetricKind: 'tproch-profile' } : {}),
    open: (stream, log) => tprochHooks(driver).openStream(cfg.target, { stream, dop: o.dop, queryTimeoutSec: o.queryTimeoutSec, log }),
  });
}
