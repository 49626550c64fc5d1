import { validityOf, type ChbenchAnalyticResult, type Validity, type ValidityCheck } from '@sledge/protocol';

/**
 * The validity verdict of a CH-benCHmark run with tprocc.vus 0 (analytic-only.ts):
 * TPROC-C's checks judge transactions, and there are none, so they are one
 * skipped line; what the streams did in the measured window is judged instead
 * (docs/results.md, "Validity verdict").
 */
export function analyticOnlyValidity(a: Pick<ChbenchAnalyticResult, 'streams' | 'completedQueries' | 'errors'>, seconds: number): Validity {
  const checks: ValidityCheck[] = [
    {
      id: 'transactions',
      title: 'TPROC-C transactions',
      status: 'skip',
      detail: 'tprocc.vus 0: no TPROC-C transactions ran, so the transactional checks (mix, new-order rollbacks, NOPM against the client count, foreign load, consistency) do not apply',
    },
    a.completedQueries > 0
      ? { id: 'analytic-window', title: 'Analytic queries in the window', status: 'pass', detail: `${a.completedQueries} queries of ${a.streams} stream(s) started and finished inside the ${seconds.toFixed(1)} s measured window` }
      : { id: 'analytic-window', title: 'Analytic queries in the window', status: 'fail', detail: `no query of ${a.streams} stream(s) both started and finished inside the ${seconds.toFixed(1)} s measured window: no queries-per-hour figure; lengthen tprocc.duration` },
    a.errors === 0
      ? { id: 'analytic-errors', title: 'Analytic query errors', status: 'pass', detail: 'no analytic query failed in the window' }
      : { id: 'analytic-errors', title: 'Analytic query errors', status: 'warn', detail: `${a.errors} analytic queries failed in the window (${a.completedQueries} completed): the job output names each` },
  ];
  return validityOf(checks);
}
