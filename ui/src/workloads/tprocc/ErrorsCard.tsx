import { useMemo } from 'react';
import { ERROR_CLASSES, type Disruption, type ErrorsSample } from '@sledge/protocol';
import type { LiveJob } from '../../live/jobState.js';
import type { WorkloadOp } from '../types.js';
import { TPROCC_OPS } from './ops.js';

/** What a run's result says it survived (run/errors.ts result fields), when it has them. */
interface FaultResult {
  retries?: { total: number };
  firstTryCommits?: number;
  monitorReconnects?: number;
  survived?: string;
}

const dataOf = <T,>(list: unknown[] | undefined): T[] => (list ?? []).map((x) => (x as { data: T }).data);

/** The run's disruptions (sessions lost / reconnected) as marks for the NOPM/TPM chart. */
export function useDisruptionMarks(live: LiveJob): { ts: number; label: string; kind: 'drop' | 'back' }[] {
  const list = live.metrics['disruption'];
  return useMemo(() => dataOf<Disruption>(list).map((d) => ({ ts: d.at, kind: d.kind, label: `${d.kind === 'drop' ? 'lost' : 'back'} ${d.sessions}` })), [list]);
}

/**
 * Errors by class and transaction (`ops`: the workload's operations, the script workload's scripts), retries by class, and sessions lost and
 * reconnected: live from the `errors` metric (cumulative, a sample each
 * second they change) and, once the run ended, what its result says it survived.
 */
export function TproccErrorsCard({ live, ops = TPROCC_OPS, opTitle = 'Transaction' }: { live: LiveJob; ops?: readonly WorkloadOp[]; opTitle?: string }) {
  const list = live.metrics['errors'];
  const last = useMemo(() => dataOf<ErrorsSample>(list).at(-1), [list]);
  const marks = useDisruptionMarks(live);
  const result = (live.job.result ?? undefined) as FaultResult | undefined;
  const total = last ? ERROR_CLASSES.reduce((a, c) => a + (last.errors[c] ?? 0), 0) : 0;
  const retries = last ? ERROR_CLASSES.reduce((a, c) => a + (last.retries[c] ?? 0), 0) : 0;
  return (
    <section className="card errors-card" data-testid="errors-card">
      <div className="card-head">
        <h3>Errors by class</h3>
        <span className="muted small">
          {total} error(s), {retries} retr{retries === 1 ? 'y' : 'ies'}
          {last && last.drops > 0 ? `; sessions lost ${last.drops}, reconnected ${last.backs}` : ''}
        </span>
      </div>
      {result?.survived && (
        <p className="small" data-testid="errors-survived">
          {result.survived}
          {result.firstTryCommits !== undefined ? ` · ${result.firstTryCommits} first-try commits` : ''}
        </p>
      )}
      {total === 0 && retries === 0 ? (
        <p className="muted small">No errors{live.job.status === 'completed' || live.job.status === 'failed' || live.job.status === 'stopped' ? '' : ' so far'}.</p>
      ) : (
        <div className="table-scroll">
        <table className="data" data-testid="errors-table">
          <thead>
            <tr>
              <th>{opTitle}</th>
              {ERROR_CLASSES.map((c) => (
                <th key={c} className="num">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ops.map((op) => (
              <tr key={op.id}>
                <td>{op.label}</td>
                {ERROR_CLASSES.map((c) => (
                  <td key={c} className="num">
                    {last?.byOp[op.id]?.[c] ?? 0}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th>All errors</th>
              {ERROR_CLASSES.map((c) => (
                <th key={c} className="num">
                  {last?.errors[c] ?? 0}
                </th>
              ))}
            </tr>
            <tr>
              <th>Retries</th>
              {ERROR_CLASSES.map((c) => (
                <th key={c} className="num">
                  {last?.retries[c] ?? 0}
                </th>
              ))}
            </tr>
          </tbody>
        </table>
        </div>
      )}
      {marks.length > 0 && (
        <p className="muted small" data-testid="errors-disruptions">
          Sessions: {marks.map((m) => `${new Date(m.ts).toLocaleTimeString()} ${m.label}`).join(' · ')}
        </p>
      )}
    </section>
  );
}
