import type { Job } from '@sledge/protocol';
import { fmtInt, localTime } from '../util/format.js';
import { replicaRunsOf, vuRanges } from '../util/replicas.js';

/**
 * A run placed on replicas: which replica ran which VUs (HammerDB positions),
 * its transactions and client-side TPM in the measured window, the VUs that
 * finished, and when a replica was lost (the run went on without it).
 * Nothing for other jobs.
 */
export function ReplicaResults({ job }: { job: Pick<Job, 'result'> }) {
  const runs = replicaRunsOf(job);
  if (!runs) return null;
  const { replicas, vusFinished } = runs;
  const vus = replicas.reduce((a, r) => a + r.vus.length, 0);
  const lost = replicas.filter((r) => r.lostAt !== undefined).length;
  return (
    <section className="card" aria-labelledby="replica-results-h" data-testid="replica-results">
      <div className="card-head">
        <h3 id="replica-results-h">Replicas</h3>
        <span className={`small ${lost ? 'bad' : 'muted'}`}>
          {replicas.length} replica{replicas.length === 1 ? '' : 's'}, {vus} VUs
          {lost ? `, ${lost} lost during the run` : ''}
        </span>
      </div>
      <div className="table-scroll">
        <table className="data compact">
          <thead>
            <tr>
              <th scope="col">Replica</th>
              <th scope="col">VUs (positions)</th>
              <th scope="col" className="num">
                Transactions
              </th>
              <th scope="col" className="num" title="Client-side commits + rollbacks per minute of the measured window, this replica's VUs">
                Client TPM
              </th>
              <th scope="col" className="num">
                Finished VUs
              </th>
              <th scope="col">Lost at</th>
            </tr>
          </thead>
          <tbody>
            {replicas.map((r) => (
              <tr key={r.name} className={r.lostAt !== undefined ? 'row-lost' : undefined} data-replica={r.name}>
                <th scope="row">
                  {r.name}
                  {r.version && <span className="muted small"> v{r.version}</span>}
                </th>
                <td>
                  {r.vus.length} <span className="muted">({vuRanges(r.vus)})</span>
                </td>
                <td className="num" data-value={r.transactions}>
                  {fmtInt(r.transactions)}
                </td>
                <td className="num" data-testid="replica-client-tpm" data-value={r.clientTpm}>
                  {fmtInt(r.clientTpm)}
                </td>
                <td className={`num${r.finishedVus < r.vus.length ? ' warn-text' : ''}`}>
                  {r.finishedVus} of {r.vus.length}
                </td>
                <td>{r.lostAt !== undefined ? <strong className="bad" title={new Date(r.lostAt).toISOString()}>✗ {localTime(r.lostAt)}</strong> : <span className="muted">–</span>}</td>
              </tr>
            ))}
          </tbody>
          {replicas.length > 1 && (
            <tfoot>
              <tr>
                <th scope="row">all</th>
                <td>{vus}</td>
                <td className="num">{fmtInt(replicas.reduce((a, r) => a + r.transactions, 0))}</td>
                <td className="num">{fmtInt(replicas.reduce((a, r) => a + r.clientTpm, 0))}</td>
                <td className="num">
                  {vusFinished ?? replicas.reduce((a, r) => a + r.finishedVus, 0)} of {vus}
                </td>
                <td />
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </section>
  );
}
