import { useMemo } from 'react';
import { isTerminalStatus, type LiveJob } from '../../live/jobState.js';
import { fmtInt, fmtMs, fmtNum } from '../../util/format.js';
import { countsOf, jobScripts, scriptResult } from './jobs.js';

/**
 * The job's scripts: per script its weight and share, what it did (executions
 * counted by its latency histogram, live; the result's transactions, TPS and
 * errors once the run ends; the latest interval's p95), and its text as
 * stored with the job.
 */
export function ScriptsCard({ live }: { live: LiveJob }) {
  const { job } = live;
  const scripts = useMemo(() => jobScripts(job), [job]);
  const counts = useMemo(() => countsOf(live.latency), [live.latency]);
  const result = scriptResult(job);
  const ended = isTerminalStatus(job.status);
  const lastLat = live.latency.at(-1)?.perType;
  const total = scripts.reduce((a, s) => a + s.weight, 0);
  if (!scripts.length) return null;
  return (
    <section className="card" data-testid="job-scripts">
      <div className="card-head">
        <h3>Scripts</h3>
        <span className="muted small">each script is an operation: its own counters, latency and errors</span>
      </div>
      <div className="table-scroll">
        <table className="data" data-testid="script-table">
          <thead>
            <tr>
              <th scope="col">Script</th>
              <th scope="col" className="num">
                Weight
              </th>
              <th scope="col" className="num">
                Share
              </th>
              <th scope="col" className="num" title="Executions counted by the script's latency histogram (rampup included)">
                Executions
              </th>
              {result && (
                <>
                  <th scope="col" className="num" title="Transactions in the measured window">
                    Transactions
                  </th>
                  <th scope="col" className="num">
                    TPS
                  </th>
                  <th scope="col" className="num">
                    Errors
                  </th>
                </>
              )}
              {!ended && (
                <th scope="col" className="num" title="p95 latency of the latest interval">
                  p95 now (ms)
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {scripts.map((s) => {
              const r = result?.scripts.find((x) => x.name === s.name);
              return (
                <tr key={s.name} data-script={s.name}>
                  <th scope="row" className="mono">
                    {s.name}
                  </th>
                  <td className="num">{fmtInt(s.weight)}</td>
                  <td className="num">{total > 0 ? `${fmtNum((100 * s.weight) / total, 1)}%` : '–'}</td>
                  <td className="num" data-testid={`script-count-${s.name}`} data-value={counts[s.name] ?? 0}>
                    {fmtInt(counts[s.name] ?? 0)}
                  </td>
                  {result && (
                    <>
                      <td className="num" data-testid={`script-tx-${s.name}`} data-value={r?.transactions ?? 0}>
                        {fmtInt(r?.transactions ?? 0)}
                      </td>
                      <td className="num">{fmtNum(r?.tps ?? 0, 1)}</td>
                      <td className={`num${r?.errors ? ' bad' : ''}`} data-testid={`script-errors-${s.name}`}>
                        {fmtInt(r?.errors ?? 0)}
                      </td>
                    </>
                  )}
                  {!ended && <td className="num">{fmtMs(lastLat?.[s.name]?.p95)}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {scripts.map((s) => (
        <details key={s.name} className="script-source" data-testid={`script-source-${s.name}`}>
          <summary>
            <span className="mono">{s.name}</span> <span className="muted small">weight {s.weight}{s.builtin ? ` · pgbench's built-in ${s.builtin}` : ''} · {s.text.split('\n').filter((l) => l.trim()).length} lines</span>
          </summary>
          <pre className="script-stored mono">{s.text}</pre>
        </details>
      ))}
    </section>
  );
}
