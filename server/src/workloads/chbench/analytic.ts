import { geomeanReturningRows, type QuerySession } from '@sledge/core';
import { chbenchStreams } from '@sledge/core/chbench';
import { CHBENCH_QUERIES, type ChbenchJobConfig, type ChbenchAnalyticResult, type ChbenchQueryStats, type ChbenchQueryTime } from '@sledge/protocol';
import type { JobEnv } from '../../engine/job-types.js';
import { StreamRun, type QueryRecord, type StreamOutcome } from '../../runner/streams.js';
import type { CompanionPlace, RunCompanion } from '../../runner/vu-run.js';
import { chbenchFiles, openChbenchSession } from './sql.js';

/** Metric kind of each analytic query's start and end frames. */
export const CHBENCH_QUERY_METRIC = 'chbench-query';

/** A query counts in the window when it started and ended inside it without error. */
function windowQueries(records: readonly QueryRecord[], from: number, to: number): ChbenchQueryTime[] {
  return records
    .map((q) => {
      const endAt = q.startedAt + q.seconds * 1000;
      const inWindow = q.startedAt >= from && endAt <= to;
      return { q, endAt, inWindow };
    })
    .sort((a, b) => a.endAt - b.endAt)
    .map(({ q, inWindow }) => ({
      stream: q.stream,
      set: q.set,
      query: q.query,
      startMs: Math.round(q.startedAt - from),
      seconds: q.seconds,
      rows: q.rows,
      inWindow,
      ...(q.error ? { error: q.error } : {}),
    }));
}

function perQuery(times: readonly ChbenchQueryTime[]): ChbenchQueryStats[] {
  return CHBENCH_QUERIES.map((_, i) => {
    const all = times.filter((t) => t.inWindow && t.query === i + 1);
    const ok = all.filter((t) => !t.error);
    const secs = ok.map((t) => t.seconds);
    return {
      query: i + 1,
      count: ok.length,
      errors: all.length - ok.length,
      meanSeconds: secs.length ? secs.reduce((a, b) => a + b, 0) / secs.length : 0,
      minSeconds: secs.length ? Math.min(...secs) : 0,
      maxSeconds: secs.length ? Math.max(...secs) : 0,
    };
  });
}

/** The analytic streams' result over a window of `seconds` between `from` and `to` (epoch ms). */
export function analyticResult(streams: number, records: readonly QueryRecord[], from: number, to: number, seconds: number): ChbenchAnalyticResult {
  const queries = windowQueries(records, from, to);
  const ok = queries.filter((q) => q.inWindow && !q.error);
  const errors = queries.filter((q) => q.inWindow && q.error).length;
  const g = geomeanReturningRows(ok);
  return {
    streams,
    queriesPerHour: seconds > 0 ? Math.round((ok.length * 3600) / seconds) : 0,
    completedQueries: ok.length,
    errors,
    geomean: Math.round(g.geomean * 1e5) / 1e5,
    perQuery: perQuery(queries),
    queries,
  };
}

/**
 * CH-benCHmark's analytic streams beside TPROC-C's virtual users: M streams
 * on the generic stream runner, each on its own query session
 * (sledge-chbench-<n>), looping over the 22 queries from the start of the
 * rampup until the measured window ends; the queries that started and
 * ended inside the window are the result. Output VUs follow the TPROC-C VUs.
 */
export function analyticCompanion(env: JobEnv<ChbenchJobConfig>, at: CompanionPlace): RunCompanion {
  const cfg = env.cfg;
  const o = cfg.chbench;
  const files = chbenchFiles(cfg);
  const run = new StreamRun<typeof o, QuerySession>(env.ctx, env.stop, {
    workload: chbenchStreams,
    options: o,
    seed: cfg.seed,
    sql: files.queries,
    queryTimeoutSec: o.queryTimeoutSec,
    raiseQueryError: o.raiseQueryError,
    verbose: false,
    metricKind: CHBENCH_QUERY_METRIC,
    open: (stream, log) => openChbenchSession(env.driver, cfg, chbenchStreams.sessionName(stream), { dop: o.dop, queryTimeoutSec: o.queryTimeoutSec, log }),
  });
  const mon = (text: string) => env.ctx.output(1, text);
  const outcomes: StreamOutcome[] = [];
  const running: Promise<void>[] = [];
  let from = 0;
  let to = 0;
  return {
    start() {
      if (o.analyticStreams === 0) {
        mon('No analytic streams: transactions alone (the interference baseline)');
        return;
      }
      mon(`${o.analyticStreams} analytic stream(s) on VUs ${at.firstVu}-${at.firstVu + o.analyticStreams - 1}, looping over the 22 CH-benCHmark queries`);
      for (let s = 1; s <= o.analyticStreams; s++) {
        running.push(
          run.runStream(s, at.firstVu + s - 1, { sets: Infinity }).then(
            (out) => void outcomes.push(out),
            (e: unknown) => {
              // A raised query error or a session that could not open: the run ends and fails with it.
              run.fail(e);
              env.stop.request();
            },
          ),
        );
      }
    },
    windowStart() {
      from = Date.now();
    },
    async windowEnd() {
      to = Date.now();
      run.halt();
      await Promise.allSettled(running);
    },
    failure: () => run.failed,
    result(seconds) {
      const analytic = analyticResult(o.analyticStreams, outcomes.flatMap((x) => x.queries), from, to || Date.now(), seconds);
      const lines = [
        o.analyticStreams === 0
          ? 'Analytic streams: none (transactions alone)'
          : `Analytic streams: ${analytic.streams}, ${analytic.completedQueries} queries completed in the measured window (${analytic.queriesPerHour} queries per hour), ${analytic.errors} errors, geometric mean ${analytic.geomean.toFixed(5)} s`,
      ];
      return { fields: { analytic }, lines };
    },
    async close() {
      run.halt();
      await Promise.allSettled(running);
    },
  };
}
