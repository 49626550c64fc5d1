import { useEffect, useState } from 'react';
import type { JobChanges } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { ErrorBox } from './ErrorBox.js';

const shortId = (id: string) => `…${id.slice(-8)}`;
const ms = (v: number | null) => (v === null ? '—' : v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
const pct = (v: number | null) => (v === null ? '' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}%`);
const VERDICT_CLASS: Record<JobChanges['verdict']['verdict'], string> = { regression: 'bad', improvement: 'good', 'within-noise': 'muted', unknown: 'muted' };

/** What changed from run A (the base) to run B: settings that differ, statements whose time moved, plans that changed shape, and the verdict. */
export function RunChanges({ a, b }: { a: string; b: string }) {
  const [data, setData] = useState<JobChanges>();
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    let on = true;
    setData(undefined);
    api.changes(a, b).then(
      (d) => on && (setData(d), setError(undefined)),
      (e: ApiError) => on && setError(e),
    );
    return () => {
      on = false;
    };
  }, [a, b]);
  if (error) return <ErrorBox error={error} />;
  if (!data) return <p className="muted">Loading what changed…</p>;
  const { settings, statements, plans, verdict } = data;
  return (
    <section className="card" aria-labelledby={`changes-${b}`} data-testid="run-changes" data-a={a} data-b={b}>
      <h3 id={`changes-${b}`}>
        What changed: <span className="mono">{shortId(a)}</span> → <span className="mono">{shortId(b)}</span>
      </h3>
      <p data-testid="verdict" data-verdict={verdict.verdict} className={VERDICT_CLASS[verdict.verdict]}>
        <strong>{verdict.verdict === 'within-noise' ? 'Within noise' : verdict.verdict === 'unknown' ? 'No verdict' : verdict.verdict === 'regression' ? 'Regression' : 'Improvement'}</strong>: {verdict.message}
      </p>

      <h4>Settings that differ</h4>
      {settings.unavailable ? (
        <p className="muted" data-testid="settings-unavailable">{settings.unavailable}</p>
      ) : settings.differ.length === 0 ? (
        <p className="muted" data-testid="settings-same">
          All {settings.compared} recorded settings are the same.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data compact" data-testid="settings-diff">
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">A {shortId(a)}</th>
                <th scope="col">B {shortId(b)}</th>
              </tr>
            </thead>
            <tbody>
              {settings.differ.map((s) => (
                <tr key={s.name} data-name={s.name}>
                  <th scope="row" className="mono">{s.name}</th>
                  <td className="mono" data-side="a" title={s.sourceA ? `source: ${s.sourceA}` : undefined}>
                    {s.a ?? <span className="muted">(none)</span>}
                    {s.sourceA && <span className="muted small"> {s.sourceA}</span>}
                  </td>
                  <td className="mono changed" data-side="b" title={s.sourceB ? `source: ${s.sourceB}` : undefined}>
                    {s.b ?? <span className="muted">(none)</span>}
                    {s.sourceB && <span className="muted small"> {s.sourceB}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h4>Statements whose time moved</h4>
      {statements.unavailable ? (
        <p className="muted" data-testid="statements-unavailable">{statements.unavailable}</p>
      ) : statements.moved.length === 0 ? (
        <p className="muted" data-testid="statements-same">No statement's mean time moved by more than 10%.</p>
      ) : (
        <div className="table-wrap">
          <table className="data compact" data-testid="statements-diff">
            <thead>
              <tr>
                <th scope="col">Statement</th>
                <th scope="col">Calls A</th>
                <th scope="col">Calls B</th>
                <th scope="col">Mean ms A</th>
                <th scope="col">Mean ms B</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {statements.moved.map((s) => (
                <tr key={s.id} data-id={s.id}>
                  <td className="mono small" title={s.text}>{s.text.length > 120 ? `${s.text.slice(0, 120)}…` : s.text}</td>
                  <td>{s.callsA}</td>
                  <td>{s.callsB}</td>
                  <td>{ms(s.meanMsA)}</td>
                  <td>{ms(s.meanMsB)}</td>
                  <td className={s.change === null ? 'muted' : s.change > 0 ? 'bad' : 'good'}>{s.change === null ? (s.meanMsA === null ? 'new' : 'gone') : pct(s.change)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {plans.compared > 0 && (
        <>
          <h4>Plans that changed shape</h4>
          {plans.changed.length === 0 ? (
            <p className="muted" data-testid="plans-same">The {plans.compared} queries with a stored plan in both runs kept their plan shape.</p>
          ) : (
            <ul data-testid="plans-diff">
              {plans.changed.map((p) => (
                <li key={p.query}>
                  <details>
                    <summary>Query {p.query}</summary>
                    <div className="plan-pair">
                      <pre className="mono small">{p.planA}</pre>
                      <pre className="mono small">{p.planB}</pre>
                    </div>
                  </details>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
