import type { Job } from '@sledge/protocol';
import { VALIDITY_MARK, validityView } from '../util/validity.js';

/** A run's validity verdict: each check with pass/warn/fail/skip and why (the measured value and its band). Runs stored before verdicts say "not computed". */
export function ValidityPanel({ job }: { job: Job }) {
  const view = validityView(job);
  if (view.kind === 'none') return null;
  if (view.kind === 'not-computed') {
    return (
      <section className="card validity" aria-labelledby="validity-h" data-testid="validity-panel">
        <h3 id="validity-h">
          Validity <span className="muted">not computed (this run was stored before validity verdicts)</span>
        </h3>
      </section>
    );
  }
  const { validity: v, counts } = view;
  const overall = VALIDITY_MARK[v.status];
  return (
    <section className="card validity" aria-labelledby="validity-h" data-testid="validity-panel">
      <h3 id="validity-h">
        Validity{' '}
        <span className={`verdict ${overall.className}`} data-testid="validity-status">
          {overall.text}
        </span>{' '}
        <span className="muted">
          ({counts.pass} passed, {counts.warn} warned, {counts.fail} failed, {counts.skip} skipped)
        </span>
      </h3>
      <table className="data compact">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Result</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {v.checks.map((c) => (
            <tr key={c.id} data-check={c.id} data-status={c.status}>
              <th scope="row">{c.title}</th>
              <td className={`result ${VALIDITY_MARK[c.status].className}`}>{VALIDITY_MARK[c.status].text}</td>
              <td className="muted">{c.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
