import type { VuStatus } from '@sledge/protocol';
import { fmtInt } from '../util/format.js';

/** One cell per virtual user: state, commits, rollbacks, errors (and home warehouse). */
export function VuGrid({ vus, ended = false }: { vus: readonly VuStatus[]; ended?: boolean }) {
  if (!vus.length) return <p className="muted">No virtual users yet.</p>;
  const totals = vus.reduce((a, v) => ({ commits: a.commits + v.commits, rollbacks: a.rollbacks + v.rollbacks, errors: a.errors + v.errors }), { commits: 0, rollbacks: 0, errors: 0 });
  return (
    <div>
      <p className="muted">
        {vus.length} VUs · {fmtInt(totals.commits)} commits · {fmtInt(totals.rollbacks)} rollbacks · {fmtInt(totals.errors)} errors
        {ended && vus.some((v) => v.state === 'running' || v.state === 'connecting') ? ' · states as last reported before the job ended' : ''}
      </p>
      <ul className="vu-grid" aria-label="Virtual users" data-testid="vu-grid">
        {vus.map((v) => (
          <li key={v.vu} className={`vu vu-${v.state}`} title={`VU ${v.vu}: ${v.state}`}>
            <div className="vu-head">
              <strong>VU {v.vu}</strong>
              <span className="vu-state">{v.state}</span>
            </div>
            <dl>
              <dt>commits</dt>
              <dd>{fmtInt(v.commits)}</dd>
              <dt>rollbacks</dt>
              <dd>{fmtInt(v.rollbacks)}</dd>
              <dt>errors</dt>
              <dd className={v.errors ? 'bad' : ''}>{fmtInt(v.errors)}</dd>
              {v.warehouse !== undefined && (
                <>
                  <dt>warehouse</dt>
                  <dd>{v.warehouse}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </div>
  );
}
