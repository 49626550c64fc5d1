import type { VuStatus } from '@sledge/protocol';
import { fmtInt } from '../util/format.js';

/** One cell per virtual user: state, commits, rollbacks, errors (and home warehouse). */
export function VuGrid({ vus }: { vus: readonly VuStatus[] }) {
  if (!vus.length) return <p className="muted">No virtual users yet.</p>;
  const totals = vus.reduce((a, v) => ({ commits: a.commits + v.commits, rollbacks: a.rollbacks + v.rollbacks, errors: a.errors + v.errors }), { commits: 0, rollbacks: 0, errors: 0 });
  return (
    <div>
      <p className="muted">
        {vus.length} VUs · {fmtInt(totals.commits)} commits · {fmtInt(totals.rollbacks)} rollbacks · {fmtInt(totals.errors)} errors
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
