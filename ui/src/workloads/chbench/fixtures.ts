/** Test fixtures: CH-benCHmark jobs, results and metric samples (made up for tests, labelled as such). */
import type { ChbenchAnalyticResult, ChbenchResult, Job } from '@sledge/protocol';
import { job } from '../../live/fixtures.js';

/** A `chbench-query` metric sample. */
export const cqSample = (ts: number, data: { stream: number; set?: number; query: number; position?: number; phase: 'start' | 'end'; seconds?: number; rows?: number; error?: string }) => ({
  ts,
  data: { set: 1, position: data.query, ...data },
});

export function analyticFixture(over: Partial<ChbenchAnalyticResult> = {}): ChbenchAnalyticResult {
  return {
    streams: 1,
    queriesPerHour: 720,
    completedQueries: 3,
    errors: 1,
    geomean: 0.2,
    perQuery: [
      { query: 1, count: 2, errors: 0, meanSeconds: 0.3, minSeconds: 0.2, maxSeconds: 0.4 },
      { query: 2, count: 1, errors: 1, meanSeconds: 0.1, minSeconds: 0.1, maxSeconds: 0.1 },
    ],
    queries: [
      { stream: 1, set: 1, query: 1, startMs: -500, seconds: 0.2, rows: 4, inWindow: false },
      { stream: 1, set: 1, query: 1, startMs: 100, seconds: 0.4, rows: 4, inWindow: true },
    ],
    ...over,
  };
}

export function chbenchResultFixture(over: Partial<ChbenchResult> = {}): ChbenchResult {
  return {
    nopm: 1200,
    tpm: 2800,
    tpmSource: 'client',
    activeVus: 2,
    measuredSeconds: 15,
    line: 'TEST RESULT : System achieved 2800 SQLite TPM at 1200 NOPM',
    analytic: analyticFixture(),
    ...over,
  } as ChbenchResult;
}

export const chbenchJob = (over: Partial<Job> = {}): Job =>
  job({
    workload: 'chbench' as Job['workload'],
    engine: 'sqlite',
    status: 'completed',
    config: { workload: 'chbench', tprocc: { driver: 'timed', vus: 2, rampup: 0, duration: 0.25, tcRefreshSec: 10 }, chbench: { analyticStreams: 1, dop: 2, queryTimeoutSec: 30, raiseQueryError: false } },
    ...over,
  });
