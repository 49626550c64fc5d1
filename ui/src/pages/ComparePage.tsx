import { Fragment, useEffect, useMemo, useState } from 'react';
import type { Job, LatencySample, Tcount, TimingRow } from '@sledge/protocol';
import { ENGINE_DISPLAY } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { EChart } from '../charts/EChart.js';
import { compareOption, type CompareSeries } from '../charts/options/compare.js';
import type { Pct } from '../charts/options/tcount.js';
import { PercentileSelect } from '../components/PercentileSelect.js';
import { paletteFor } from '../charts/options/palette.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { ReportButton } from '../components/ReportButton.js';
import { RunChanges } from '../components/RunChanges.js';
import { compareReportPath } from '../api/download.js';
import { Link, setSearch, useLocation } from '../router.js';
import { useResource } from '../state/resource.js';
import { useTheme } from '../theme.js';
import { fmtInt, fmtMs, localDateTime } from '../util/format.js';
import { DEFAULT_WORKLOAD, workloadOf, workloadUi, type ResultColumn } from '../workloads/index.js';
import { configDiff, delta, workloadGroups } from '../util/compare.js';
import { chartableClient, chartableEngine } from '../util/runProgress.js';

interface Loaded {
  job: Job;
  tcount: Tcount;
  timing: TimingRow[];
  latency: LatencySample[];
}

/** A result column's value of a job as its workload writes it. */
const fmtCol = (c: ResultColumn | undefined, j: Job): string => {
  const v = c?.value(j);
  return v === undefined ? '' : c?.format ? c.format(v) : fmtInt(v);
};

/** Job ids start with a timestamp, so jobs of one minute share their head: show the tail. */
const shortId = (id: string) => `…${id.slice(-8)}`;
const legendName = (j: Job) => j.label ?? `${ENGINE_DISPLAY[j.engine]} ${String(workloadOf(j).jobVus(j) ?? '?')} VU ${shortId(j.id)}`;
const startOf = (l: Loaded) => (l.job.startedAt ? Date.parse(l.job.startedAt) : (l.tcount.client[0]?.ts ?? l.tcount.engine[0]?.ts ?? 0));

/** The difference against the base (first) job, absolute and in per cent. */
function Delta({ v, base, testId, format, lowerIsBetter }: { v: number | undefined; base: number | undefined; testId: string; format?: ((n: number) => string) | undefined; lowerIsBetter?: boolean | undefined }) {
  const d = delta(v, base, format);
  if (!d) return null;
  const better = lowerIsBetter ? d.abs < 0 : d.abs > 0;
  const worse = lowerIsBetter ? d.abs > 0 : d.abs < 0;
  return (
    <span className={better ? 'good' : worse ? 'bad' : 'muted'} data-testid={testId} data-abs={d.abs}>
      {d.text}
    </span>
  );
}

function JobPicker({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  const runs = useResource('compare-runs', () => api.listJobs({ type: 'run', limit: 200 }));
  const jobs = (runs.data?.jobs ?? []).filter((j) => j.result);
  // Runs of one workload compare: once one is chosen, the others' runs cannot be added.
  const chosen = jobs.find((j) => selected.includes(j.id));
  return (
    <fieldset className="card picker">
      <legend>Runs with a result</legend>
      {runs.error && <ErrorBox error={runs.error} />}
      {!jobs.length && !runs.loading && <p className="muted">No finished runs yet.</p>}
      <ul className="pick-list">
        {jobs.map((j) => {
          const head = workloadOf(j).resultColumns[0];
          const other = chosen !== undefined && chosen.workload !== j.workload && !selected.includes(j.id);
          return (
            <li key={j.id} className={other ? 'muted' : undefined}>
              <label title={other ? `A ${workloadOf(j).name} run: the chosen runs are ${workloadOf(chosen).name}; compare runs of one workload` : undefined}>
                <input
                  type="checkbox"
                  checked={selected.includes(j.id)}
                  disabled={other}
                  onChange={() => onChange(selected.includes(j.id) ? selected.filter((x) => x !== j.id) : [...selected, j.id])}
                  data-job-id={j.id}
                />{' '}
                <span className="mono">{j.id}</span> {ENGINE_DISPLAY[j.engine]} · {workloadOf(j).name} · {String(workloadOf(j).jobVus(j) ?? '?')} VU · {fmtCol(head, j)} {head?.title} {j.label && <strong>{j.label}</strong>} <span className="muted">{localDateTime(j.createdAt)}</span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function Overlay({ loaded }: { loaded: Loaded[] }) {
  const palette = paletteFor(useTheme());
  // The first (base) job's workload names the columns and operations.
  const wl = workloadOf(loaded[0]!.job);
  const { ops } = wl;
  const make = (pick: (l: Loaded) => { ts: number; value: number }[]): CompareSeries[] => loaded.map((l) => ({ name: legendName(l.job), start: startOf(l), points: pick(l) }));
  // Stored runs: no counter baseline at the start, no all-zero samples after the VUs stopped.
  const counters = useMemo(
    () => wl.counters.map((c) => ({ ...c, option: compareOption(make((l) => chartableEngine(l.tcount.engine, true).map((s) => ({ ts: s.ts, value: c.value(s) }))), c.title, palette) })),
    [wl, loaded, palette],
  );
  const tx = useMemo(() => compareOption(make((l) => chartableClient(l.tcount.client, true).map((s) => ({ ts: s.ts, value: s.commits + s.rollbacks }))), 'client tx/s', palette), [loaded, palette]);
  const [latType, setLatType] = useState<string>(ops[0]?.id ?? '');
  const [latPct, setLatPct] = useState<Pct>('p95');
  const lat = useMemo(
    () => compareOption(make((l) => l.latency.flatMap((s) => (s.perType[latType]?.count ? [{ ts: s.ts, value: s.perType[latType]![latPct] }] : []))), `${latPct} ms`, palette),
    [loaded, palette, latType, latPct],
  );
  const diffRows = useMemo(() => configDiff(loaded.map((l) => l.job.config)), [loaded]);
  const base = loaded[0];
  const first = ops[0];
  const p95 = (l: Loaded) => l.timing.find((r) => r.vu === 0 && r.proc === first?.label)?.p95Ms;
  // The first operation's p95 column, when the jobs timed it (TPROC-C's transactions).
  const hasP95 = loaded.some((l) => p95(l) !== undefined);
  const { CompareCharts } = wl;
  return (
    <>
      <section className="card" aria-label="Results side by side">
        <h3>Results</h3>
        <div className="table-wrap">
          <table className="data" data-testid="compare-table">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Database</th>
                <th scope="col" className="num">
                  VUs
                </th>
                <th scope="col" className="num">
                  {wl.scaleTitle}
                </th>
                <th scope="col" className="num">
                  {wl.planTitle}
                </th>
                {wl.resultColumns.map((c) => (
                  <Fragment key={c.key}>
                    <th scope="col" className="num">
                      {c.title}
                    </th>
                    <th scope="col" className="num">
                      {c.title} vs base
                    </th>
                  </Fragment>
                ))}
                {hasP95 && (
                  <th scope="col" className="num">
                    {first?.label} p95 (ms)
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {loaded.map((l, i) => (
                <tr key={l.job.id}>
                  <th scope="row" className="mono nowrap">
                    <Link to={`/jobs/${l.job.id}`}>{shortId(l.job.id)}</Link>
                    {i === 0 && <span className="badge">base</span>}
                  </th>
                  <td>
                    {ENGINE_DISPLAY[l.job.engine]} {l.job.engineVersion ?? ''}
                  </td>
                  <td className="num">{String(wl.jobVus(l.job) ?? '')}</td>
                  <td className="num">{wl.jobScale(l.job) ?? ''}</td>
                  <td className="num">{wl.planCell(l.job)}</td>
                  {wl.resultColumns.map((c) => (
                    <Fragment key={c.key}>
                      <td className="num">{fmtCol(c, l.job)}</td>
                      <td className="num">{i === 0 ? '' : <Delta v={c.value(l.job)} base={base ? c.value(base.job) : undefined} testId={`delta-${c.key}`} format={c.format} lowerIsBetter={c.lowerIsBetter} />}</td>
                    </Fragment>
                  ))}
                  {hasP95 && <td className="num">{fmtMs(p95(l))}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="card" aria-labelledby="config-diff-h">
        <h3 id="config-diff-h">Configuration differences</h3>
        {diffRows.length === 0 ? (
          <p className="muted" data-testid="config-diff-none">
            The stored configurations are identical.
          </p>
        ) : (
          <div className="table-wrap config-table">
            <table className="data compact" data-testid="config-diff">
              <thead>
                <tr>
                  <th scope="col">Setting</th>
                  {loaded.map((l, i) => (
                    <th scope="col" key={l.job.id} className="mono">
                      {shortId(l.job.id)}
                      {i === 0 && <span className="badge">base</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {diffRows.map((r) => (
                  <tr key={r.key} data-key={r.key}>
                    <th scope="row" className="mono">
                      {r.key}
                    </th>
                    {r.values.map((v, i) => (
                      <td key={i} className={`mono${i > 0 && v !== r.values[0] ? ' changed' : ''}`}>
                        {v ?? <span className="muted">(not set)</span>}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {loaded.slice(1).map((l) => (
        <RunChanges key={l.job.id} a={loaded[0]!.job.id} b={l.job.id} />
      ))}
      {CompareCharts ? (
        <CompareCharts jobs={loaded.map((l) => l.job)} />
      ) : (
      <div className="charts">
        {counters.map((c) => (
          <section key={c.key} className="card">
            <h3>{c.title} over elapsed time</h3>
            <EChart option={c.option} group="compare" label={`${c.title} of the selected jobs over elapsed time`} testId={`compare-${c.key}`} />
          </section>
        ))}
        <section className="card">
          <h3>Client transactions per second</h3>
          <EChart option={tx} group="compare" label="Client transactions per second of the selected jobs" testId="compare-tx" />
        </section>
        <section className="card">
          <div className="card-head">
            <h3>Latency</h3>
            <span className="inline">
              <label>
                Transaction{' '}
                <select value={latType} onChange={(e) => setLatType(e.target.value)} data-testid="compare-latency-type">
                  {ops.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </label>
              <PercentileSelect value={latPct} onChange={setLatPct} testId="compare-latency-pct" />
            </span>
          </div>
          <EChart option={lat} group="compare" label={`${latPct} latency of ${ops.find((o) => o.id === latType)?.label ?? latType} for the selected jobs over elapsed time`} testId="compare-latency" />
        </section>
      </div>
      )}
    </>
  );
}

/**
 * Runs of different workloads chosen together: their figures do not compare
 * (NOPM against a geomean), so nothing is overlaid; each workload's runs can
 * be compared on their own.
 */
function MixedWorkloads({ groups }: { groups: { workload: string; jobs: Job[] }[] }) {
  return (
    <section className="error-box" role="alert" data-testid="compare-mixed">
      <p>
        <strong>These runs are of different workloads</strong> ({groups.map((g) => `${workloadUi(g.workload).name}: ${g.jobs.length}`).join(', ')}): their results and series do not compare. Compare runs of one workload:
      </p>
      <ul>
        {groups.map((g) => (
          <li key={g.workload}>
            {g.jobs.length >= 2 ? (
              <Link to={`/compare?jobs=${g.jobs.map((j) => j.id).join(',')}`} data-testid={`compare-only-${g.workload}`}>
                the {g.jobs.length} {workloadUi(g.workload).name} runs
              </Link>
            ) : (
              <span className="muted">
                the {workloadUi(g.workload).name} run {shortId(g.jobs[0]!.id)} alone (choose another {workloadUi(g.workload).name} run to compare it)
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Compare: overlay two or more runs on one elapsed-time axis, and plot performance profiles. */
export function ComparePage() {
  const { Profiles } = workloadUi(DEFAULT_WORKLOAD);
  const { search } = useLocation();
  const selected = (search.get('jobs') ?? '').split(',').filter(Boolean);
  const profile = search.get('profile') ? Number(search.get('profile')) : undefined;
  const key = selected.join(',');
  const [loaded, setLoaded] = useState<Loaded[]>([]);
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    let on = true;
    if (!key) {
      setLoaded([]);
      return;
    }
    Promise.all(key.split(',').map(async (id) => ({ job: await api.job(id), tcount: await api.tcount(id), timing: await api.timing(id), latency: await api.latency(id) })))
      .then((l) => {
        if (!on) return;
        setLoaded(l);
        setError(undefined);
      })
      .catch((e: ApiError) => on && setError(e));
    return () => {
      on = false;
    };
  }, [key]);
  const groups = useMemo(() => workloadGroups(loaded.map((l) => l.job)), [loaded]);
  return (
    <div className="page">
      <div className="page-head">
        <h2>Compare</h2>
        <div className="actions">
          <ReportButton
            path={compareReportPath(selected)}
            fileName={`sledge-compare-${selected.join('-')}.html`}
            testId="compare-report"
            title={groups.length > 1 ? 'Runs of different workloads do not compare: choose runs of one workload' : selected.length >= 2 && selected.length <= 8 ? 'A self-contained HTML report of this comparison: it opens offline and can be mailed' : 'Choose 2 to 8 runs for a comparison report'}
            onError={setError}
            disabled={selected.length < 2 || selected.length > 8 || groups.length > 1}
          />
        </div>
      </div>
      <JobPicker selected={selected} onChange={(ids) => setSearch({ jobs: ids.join(',') })} />
      <ErrorBox error={error} />
      {selected.length < 2 && <p className="muted">Choose two or more runs to overlay their series.</p>}
      {selected.length >= 2 && loaded.length >= 2 && (groups.length > 1 ? <MixedWorkloads groups={groups} /> : <Overlay loaded={loaded} />)}
      {Profiles && <Profiles selected={profile} />}
    </div>
  );
}
