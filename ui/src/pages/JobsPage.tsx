import { useCallback, useEffect, useMemo, useState } from 'react';
import type { BestJobs, EngineId, Job, JobListQuery } from '@sledge/protocol';
import { ENGINES, ENGINE_DISPLAY, JOB_STATUSES, JOB_TYPES } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { RerunActions } from '../components/RerunActions.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { useJobFeed } from '../live/connection.js';
import { isTerminalStatus } from '../live/jobState.js';
import { Link, navigate, setSearch, useLocation } from '../router.js';
import { fmtDuration, fmtInt, localTime } from '../util/format.js';
import { groupByDay, jobElapsedMs, matchesFilter, upsertJob, type JobFilter } from '../util/jobs.js';
import { verdictOf } from '../util/verdict.js';
import { DEFAULT_WORKLOAD, workloadOf, workloadUi, workloadUis, type ResultColumn } from '../workloads/index.js';

const PAGE = 100;

const fmtOpt = (n: number | undefined) => (n === undefined ? '' : fmtInt(n));
/** A scale figure: whole ones with separators (warehouses), fractions as they are (TPROC-H SF 0.01). */
const fmtScale = (n: number | undefined) => (n === undefined ? '' : Number.isInteger(n) ? fmtInt(n) : String(n));
const fmtCol = (c: ResultColumn, j: Job) => {
  const v = c.value(j);
  return v === undefined ? '' : c.format ? c.format(v) : fmtInt(v);
};

/**
 * The result columns (by key, first seen first) and scale title of the
 * workloads the listed jobs are of (the default one for an empty list): each
 * row fills its own workload's and leaves the others' empty.
 */
function listColumns(jobs: readonly Job[]): { columns: { key: string; title: string; headline: boolean }[]; scaleTitle: string } {
  const ids = new Set(jobs.map((j) => workloadOf(j).id));
  const uis = workloadUis().filter((w) => ids.has(w.id));
  const shown = uis.length ? uis : [workloadUi(DEFAULT_WORKLOAD)];
  const seen = new Map<string, string>();
  for (const w of shown) for (const c of w.resultColumns) if (!seen.has(c.key)) seen.set(c.key, c.title);
  // Each workload's headline stays on narrow screens; its other figures go first.
  const headlines = new Set(shown.map((w) => w.resultColumns[0]?.key));
  return { columns: [...seen].map(([key, title]) => ({ key, title, headline: headlines.has(key) })), scaleTitle: [...new Set(shown.map((w) => w.scaleTitle))].join(' / ') };
}

/** A timed run's plan (rampup + measured minutes); other jobs: how long they took. */
function durationCell(j: Job): { text: string; title: string } {
  const elapsed = jobElapsedMs(j, Date.now());
  const took = elapsed === undefined ? 'not started' : `took ${fmtDuration(elapsed)}`;
  const planned = workloadOf(j).plannedText(j);
  if (planned) return { text: planned.text, title: `${planned.title}; ${took}` };
  return { text: elapsed === undefined ? '' : fmtDuration(elapsed), title: took };
}

/** Job history grouped by date (HammerDB's /jobs home page), filters, the best headline result (NOPM) per engine starred. */
export function JobsPage() {
  const { search } = useLocation();
  const filter: JobFilter = {
    engine: search.get('engine') ?? '',
    type: search.get('type') ?? '',
    status: search.get('status') ?? '',
    q: search.get('q') ?? '',
  };
  const [text, setText] = useState(filter.q ?? '');
  const [jobs, setJobs] = useState<Job[]>([]);
  // The listed workloads' columns; each row reads its own job's workload and leaves the others' empty.
  const shown = useMemo(() => listColumns(jobs), [jobs]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const [best, setBest] = useState<BestJobs>({});
  const [selected, setSelected] = useState<string[]>([]);
  const key = `${filter.engine}|${filter.type}|${filter.status}|${filter.q}`;

  const query = useCallback(
    (offset: number): JobListQuery => ({
      ...(filter.engine ? { engine: filter.engine as EngineId } : {}),
      ...(filter.type ? { type: filter.type as Job['type'] } : {}),
      ...(filter.status ? { status: filter.status as Job['status'] } : {}),
      ...(filter.q ? { q: filter.q } : {}),
      limit: PAGE,
      offset,
    }),
    [key],
  );

  useEffect(() => {
    let on = true;
    setLoading(true);
    api
      .listJobs(query(0))
      .then((r) => {
        if (!on) return;
        setJobs(r.jobs);
        setTotal(r.total);
        setError(undefined);
      })
      .catch((e: ApiError) => on && setError(e))
      .finally(() => on && setLoading(false));
    return () => {
      on = false;
    };
  }, [query]);

  const refreshBest = useCallback(() => {
    api.best().then(setBest, () => undefined);
  }, []);
  useEffect(refreshBest, [refreshBest]);

  // Debounce the text filter into the URL.
  useEffect(() => {
    const t = setTimeout(() => {
      if (text !== (filter.q ?? '')) setSearch({ q: text });
    }, 300);
    return () => clearTimeout(t);
  }, [text, filter.q]);

  const onJob = useCallback(
    (job: Job) => {
      setJobs((list) => {
        const known = list.some((j) => j.id === job.id);
        if (!known && !matchesFilter(job, filter)) return list;
        if (!known) setTotal((t) => t + 1);
        return upsertJob(list, job);
      });
      if (job.type === 'run' && isTerminalStatus(job.status)) refreshBest();
    },
    [key, refreshBest],
  );
  useJobFeed(onJob);

  const bestIds = useMemo(() => new Set(Object.values(best)), [best]);
  const groups = useMemo(() => groupByDay(jobs), [jobs]);

  const remove = async (id: string) => {
    try {
      await api.deleteJob(id);
      setJobs((l) => l.filter((j) => j.id !== id));
      setTotal((t) => t - 1);
      setSelected((s) => s.filter((x) => x !== id));
      refreshBest();
    } catch (e) {
      setError(e as ApiError);
    }
  };
  const more = async () => {
    try {
      const r = await api.listJobs(query(jobs.length));
      setJobs((l) => l.concat(r.jobs.filter((j) => !l.some((x) => x.id === j.id))));
      setTotal(r.total);
    } catch (e) {
      setError(e as ApiError);
    }
  };
  // Runs of one workload compare (NOPM does not compare with a geomean).
  const mixed = new Set(jobs.filter((j) => selected.includes(j.id)).map((j) => j.workload)).size > 1;
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <div className="page">
      <h2>Jobs</h2>
      <form className="filters card" role="search" aria-label="Filter jobs" onSubmit={(e) => e.preventDefault()}>
        <label>
          Engine{' '}
          <select value={filter.engine} onChange={(e) => setSearch({ engine: e.target.value })} data-testid="filter-engine">
            <option value="">all</option>
            {ENGINES.map((e) => (
              <option key={e} value={e}>
                {ENGINE_DISPLAY[e]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type{' '}
          <select value={filter.type} onChange={(e) => setSearch({ type: e.target.value })} data-testid="filter-type">
            <option value="">all</option>
            {JOB_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Status{' '}
          <select value={filter.status} onChange={(e) => setSearch({ status: e.target.value })} data-testid="filter-status">
            <option value="">all</option>
            {JOB_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Text <input type="search" value={text} placeholder="id, label, summary" onChange={(e) => setText(e.target.value)} data-testid="filter-q" />
        </label>
        <span className="muted" data-testid="jobs-total">
          {fmtInt(total)} job{total === 1 ? '' : 's'}
        </span>
        <button
          type="button"
          className="primary"
          disabled={selected.length < 2 || mixed}
          title={mixed ? 'The selected runs are of different workloads: select runs of one workload' : undefined}
          onClick={() => navigate(`/compare?jobs=${selected.join(',')}`)}
          data-testid="compare-selected"
        >
          Compare selected ({selected.length})
        </button>
        {mixed && (
          <span className="bad small" role="status" data-testid="compare-selected-mixed">
            Runs of different workloads do not compare: select runs of one workload.
          </span>
        )}
      </form>
      <ErrorBox error={error} />
      {loading && !jobs.length && <p className="muted">Loading…</p>}
      {!loading && !jobs.length && !error && <p className="muted">No jobs{filter.engine || filter.type || filter.status || filter.q ? ' match these filters' : ' yet: start one on the Schema or Run page'}.</p>}
      {groups.map((g) => (
        <section key={g.day} className="card day" aria-label={`Jobs on ${g.day}`}>
          <h3>{g.day}</h3>
          <div className="table-wrap">
            <table className="data jobs" data-testid="jobs-table">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="sr-only">Select for compare</span>
                  </th>
                  <th scope="col">Job</th>
                  <th scope="col">Workload</th>
                  <th scope="col" className="col-opt2">Type</th>
                  <th scope="col" className="col-opt3">Database</th>
                  <th scope="col" className="label-col">Label</th>
                  <th scope="col" className="num col-opt2" title="Virtual users (builds: build VUs)">
                    VUs
                  </th>
                  <th scope="col" className="num col-opt2 scale-col" title={`${shown.scaleTitle} (runs: in the schema they ran on)`}>
                    {shown.scaleTitle}
                  </th>
                  <th scope="col" className="num col-opt" title="Runs: rampup + measured minutes; other jobs: how long they took">
                    Duration
                  </th>
                  {shown.columns.map((c) => (
                    <th key={c.key} scope="col" className={`num${c.headline ? '' : ' col-opt'}`}>
                      {c.title}
                    </th>
                  ))}
                  <th scope="col" className="col-opt2">Outcome</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {g.jobs.map((j) => {
                  const duration = durationCell(j);
                  const wl = workloadOf(j);
                  return (
                  <tr key={j.id} data-job-id={j.id}>
                    <td>
                      {j.type === 'run' && (
                        <input type="checkbox" aria-label={`Select job ${j.id} for compare`} checked={selected.includes(j.id)} onChange={() => toggle(j.id)} />
                      )}
                    </td>
                    <td className="job-cell">
                      <Link to={`/jobs/${j.id}`} className="mono" title={`Job ${j.id}`}>
                        …{j.id.slice(-8)}
                      </Link>
                      <span className="muted small">{localTime(j.createdAt)}</span>
                    </td>
                    <td data-col="workload">{wl.name}</td>
                    <td className="col-opt2">{j.type}</td>
                    <td className="col-opt3">
                      {ENGINE_DISPLAY[j.engine]}
                      {/* "15.20 (Debian 15.20-0+deb12u1)": the number here, the whole string on hover. */}
                      {j.engineVersion ? (
                        <span className="muted version col-opt" title={j.engineVersion}>
                          {' '}
                          {j.engineVersion.split(' ')[0]}
                        </span>
                      ) : null}
                    </td>
                    <td className="label-cell" data-col="label">
                      {j.label && <strong>{j.label}</strong>}
                    </td>
                    <td className="num col-opt2" data-col="vus">
                      {fmtOpt(wl.jobVus(j))}
                    </td>
                    <td className="num col-opt2" data-col="warehouses">
                      {fmtScale(wl.jobScale(j))}
                    </td>
                    <td className="num col-opt" data-col="duration" title={duration.title}>
                      {duration.text}
                    </td>
                    {shown.columns.map(({ key, headline }) => {
                      const cls = `num${headline ? '' : ' col-opt'}`;
                      const c = wl.resultColumns.find((x) => x.key === key);
                      if (!c) return <td key={key} className={cls} data-col={key} />;
                      return (
                      <td key={key} className={cls} data-col={key}>
                        {fmtCol(c, j)}
                        {c === wl.resultColumns[0] && bestIds.has(j.id) && (
                          <span className="star" title={`Best ${c.title} on ${ENGINE_DISPLAY[j.engine]}`} aria-label="best result" data-testid="best-star">
                            {' '}
                            ★
                          </span>
                        )}
                      </td>
                      );
                    })}
                    <td className="summary col-opt2" data-col="result" title={j.summary ?? j.error?.message ?? ''}>
                      <span className={j.error ? 'bad' : 'muted'}>{wl.outcome(j) ?? j.summary ?? j.error?.message ?? ''}</span>
                    </td>
                    <td>
                      <StatusBadge status={j.status} verdict={verdictOf(j)} />
                      {j.passed !== undefined && (
                        <span
                          className={`badge threshold-badge ${j.passed ? 'good' : 'bad'}`}
                          title={j.passed ? 'every threshold held' : (j.thresholdResults ?? []).filter((r) => !r.ok).map((r) => r.expr).join(', ')}
                          data-testid="threshold-badge"
                        >
                          {j.passed ? 'pass' : 'fail'}
                        </span>
                      )}
                    </td>
                    <td className="row-actions">
                      <div className="row-actions-inner">
                        <RerunActions job={j} small />
                        <ConfirmButton
                          title={`Delete job ${j.id}`}
                          message={<p>Delete this {j.type} job and everything it stored (output, series, result)? This cannot be undone.</p>}
                          confirmLabel="Delete job"
                          className="small danger-text"
                          disabled={!isTerminalStatus(j.status)}
                          testId={`delete-${j.id}`}
                          onConfirm={() => remove(j.id)}
                        >
                          Delete
                        </ConfirmButton>
                      </div>
                    </td>
                  </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      ))}
      {jobs.length < total && (
        <button type="button" onClick={() => void more()}>
          Load more ({fmtInt(total - jobs.length)} left)
        </button>
      )}
    </div>
  );
}
