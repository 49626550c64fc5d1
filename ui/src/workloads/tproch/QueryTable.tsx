import { Fragment, useState } from 'react';
import type { TprochQueryTime } from '@sledge/protocol';
import { api } from '../../api/endpoints.js';
import { geomeanOf, fmtSec, queryMatrix, streamName } from './result.js';
import { planEntry, type QueryPlan, type StoredProfile } from './timeline.js';

export interface QueryTableProps {
  jobId: string;
  queries: readonly TprochQueryTime[];
  /** Plans stored with the job (snapshot metrics), by query; the rest are fetched on demand. */
  plans: ReadonlyMap<number, QueryPlan>;
  /** Fetch plans the snapshot lacks (off for shared, read-only views). */
  fetchPlans?: boolean;
  /** The engine's profile of each query as it ran (engines that give one: DuckDB), by query; shown beside the plan. */
  profiles?: ReadonlyMap<number, readonly StoredProfile[]>;
}

type PlanState = { status: 'loading' } | { status: 'done'; plans: Map<number, QueryPlan> } | { status: 'error'; message: string };

/** A query's stored text beside its EXPLAIN plan (the text is absent in runs stored before it was kept). */
function PlanView({ query, p }: { query: number; p: QueryPlan }) {
  return (
    <div className="plan-pair">
      <div>
        <h5>Query text</h5>
        {p.sql !== undefined ? (
          <pre className="plan sql" data-testid={`plan-sql-q${query}`} aria-label={`Text of Q${query}`}>
            {p.sql}
          </pre>
        ) : (
          <p className="muted small" data-testid={`plan-sql-none-q${query}`}>
            This run did not store the query text (runs before it was kept with the plan).
          </p>
        )}
      </div>
      <div>
        <h5>Plan</h5>
        <pre className="plan" data-testid={`plan-text-q${query}`} aria-label={`EXPLAIN plan of Q${query}`}>
          {p.plan}
        </pre>
      </div>
    </div>
  );
}

/** Operator rows shown at most (a profile of a deep plan stays readable; the rest are counted). */
const PROFILE_ROWS = 80;

/** The engine's profile of one query run: each operator (indented by depth) with its own time, rows and CPU as the engine measured them. */
export function ProfileView({ query, p }: { query: number; p: StoredProfile }) {
  const total = p.operators.reduce((a, o) => a + o.seconds, 0);
  const shown = p.operators.slice(0, PROFILE_ROWS);
  return (
    <div className="query-profile" data-testid={`profile-q${query}`}>
      <h5>
        Profile (stream {p.stream}, set {p.set}): {fmtSec(p.seconds)} s{p.cpuSeconds !== undefined ? `, engine CPU ${fmtSec(p.cpuSeconds)} s` : ''}
      </h5>
      <table className="data compact" aria-label={`Operator timings of Q${query}`}>
        <thead>
          <tr>
            <th scope="col">Operator</th>
            <th scope="col" className="num">Seconds</th>
            <th scope="col" className="num">Share</th>
            <th scope="col" className="num">Rows</th>
            <th scope="col" className="num" title="CPU seconds the engine counted for the operator and the operators below it">
              CPU s, with children
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((o, i) => (
            <tr key={i} data-operator={o.name}>
              <td title={o.detail} style={{ paddingLeft: `${4 + o.depth * 12}px` }}>
                {o.name}
                {o.detail && <span className="muted small block">{o.detail}</span>}
              </td>
              <td className="num">{fmtSec(o.seconds)}</td>
              <td className="num">{total > 0 ? `${((o.seconds / total) * 100).toFixed(1)}%` : '–'}</td>
              <td className="num">{o.rows.toLocaleString('en-US')}</td>
              <td className="num">{fmtSec(o.cpuSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.operators.length > shown.length && <p className="muted small">{p.operators.length - shown.length} more operators not shown</p>}
    </div>
  );
}

/** A query's cell: seconds, rows returned below (and the process CPU where the engine runs in it), an error in red (its text on hover). */
function Cell({ t }: { t: TprochQueryTime | undefined }) {
  if (!t) return <td className="num muted">–</td>;
  return (
    <td className={`num${t.error ? ' bad' : ''}`} title={t.error ? `error: ${t.error}` : `position ${t.position} in the stream`} data-seconds={t.seconds} data-rows={t.rows}>
      {t.error ? 'error' : fmtSec(t.seconds)}
      <span className="muted small block">{t.error ? fmtSec(t.seconds) : `${t.rows.toLocaleString('en-US')} row${t.rows === 1 ? '' : 's'}`}</span>
      {!t.error && t.cpuSeconds !== undefined && (
        <span className="muted small block" title="CPU seconds the Sledge process (the in-process engine and everything else in it) used while the query ran" data-cpu-seconds={t.cpuSeconds}>
          CPU {fmtSec(t.cpuSeconds)} s
        </span>
      )}
    </td>
  );
}

/**
 * The query times of a run: one row per query (Q1..Q22), a column per stream
 * (seconds and rows; a failed query red with its error), the geometric mean
 * of each stream at the foot; a query set picker when several ran; each
 * query's EXPLAIN plan opens under its row.
 */
export function QueryTable({ jobId, queries, plans, fetchPlans = true, profiles }: QueryTableProps) {
  const sets = [...new Set(queries.map((q) => q.set))].sort((a, b) => a - b);
  const [set, setSet] = useState<number>();
  const m = queryMatrix(queries, set);
  const [open, setOpen] = useState<number>();
  const [fetched, setFetched] = useState<PlanState>();
  const planOf = (q: number) => plans.get(q) ?? (fetched?.status === 'done' ? fetched.plans.get(q) : undefined);
  const toggle = (q: number) => {
    setOpen((o) => (o === q ? undefined : q));
    if (plans.has(q) || fetched || !fetchPlans) return;
    setFetched({ status: 'loading' });
    api.plans(jobId).then(
      (list) => setFetched({ status: 'done', plans: new Map(list.flatMap((p) => { const e = planEntry(p); return e ? [e] : []; })) }),
      (e: Error) => setFetched({ status: 'error', message: e.message }),
    );
  };
  const single = m.streams.length === 1;
  const shownSet = set ?? sets[sets.length - 1];
  /** The profile shown under a query's row: the shown set's, the lowest stream's. */
  const profileOf = (q: number) => profiles?.get(q)?.filter((p) => p.set === shownSet).sort((a, b) => a.stream - b.stream)[0];
  return (
    <div className="query-table">
      {sets.length > 1 && (
        <label className="inline small">
          Query set{' '}
          <select value={shownSet} onChange={(e) => setSet(Number(e.target.value))} data-testid="query-set">
            {sets.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="table-wrap">
        <table className="data compact" data-testid="query-table">
          <thead>
            <tr>
              <th scope="col">Query</th>
              {single && <th scope="col" className="num">Position</th>}
              {m.streams.map((s) => (
                <th key={s} scope="col" className="num">
                  {single ? 'Seconds' : streamName(s)}
                </th>
              ))}
              <th scope="col">
                <span className="sr-only">Plan</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {m.rows.map((r) => {
              const first = r.cells.get(m.streams[0]!);
              return (
                <Fragment key={r.query}>
                  <tr data-query={r.query}>
                    <th scope="row">Q{r.query}</th>
                    {single && <td className="num muted">{first?.position ?? ''}</td>}
                    {m.streams.map((s) => (
                      <Cell key={s} t={r.cells.get(s)} />
                    ))}
                    <td>
                      <button type="button" className="linkish small" aria-expanded={open === r.query} onClick={() => toggle(r.query)} data-testid={`plan-q${r.query}`}>
                        {open === r.query ? 'Hide plan' : 'Plan'}
                      </button>
                    </td>
                  </tr>
                  {open === r.query && (
                    <tr className="plan-row">
                      <td colSpan={m.streams.length + (single ? 3 : 2)}>
                        {planOf(r.query) !== undefined ? (
                          <>
                            <PlanView query={r.query} p={planOf(r.query)!} />
                            {profileOf(r.query) && <ProfileView query={r.query} p={profileOf(r.query)!} />}
                          </>
                        ) : profileOf(r.query) ? (
                          <ProfileView query={r.query} p={profileOf(r.query)!} />
                        ) : fetched?.status === 'loading' ? (
                          <p className="muted small">Loading plans…</p>
                        ) : fetched?.status === 'error' ? (
                          <p className="bad small">Plans could not be loaded: {fetched.message}</p>
                        ) : (
                          <p className="muted small" data-testid={`plan-none-q${r.query}`}>
                            No plan stored for Q{r.query} (the run's "Store an EXPLAIN plan" option was off, or the engine gave none).
                          </p>
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" title="Geometric mean of the times of queries that returned rows">
                Geomean
              </th>
              {single && <td />}
              {m.streams.map((s) => {
                const g = geomeanOf(m.rows.flatMap((r) => (r.cells.has(s) ? [r.cells.get(s)!] : [])));
                return (
                  <td key={s} className="num" data-testid={`stream-geomean-${s}`}>
                    <strong>{fmtSec(g)}</strong>
                  </td>
                );
              })}
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
