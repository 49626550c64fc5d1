import { useMemo } from 'react';
import type { LiveJob } from '../../live/jobState.js';
import { fmtInt, fmtNum } from '../../util/format.js';
import { stepsOf } from '../tprocc/ShapeCharts.js';
import { jobScripts, scriptResult } from './jobs.js';

/**
 * A script run's shape (docs/script-workload.md, run shapes): with step
 * loads, a row per step (its VUs and window, then its transactions, TPS and
 * each script's p95; finished steps show live); with an arrival rate, the
 * target and achieved rates and the drops once the run ends. Nothing for a
 * run with neither.
 */
export function ScriptStepsCard({ live }: { live: LiveJob }) {
  const steps = stepsOf(live);
  const names = useMemo(() => jobScripts(live.job).map((s) => s.name), [live.job]);
  const arrival = scriptResult(live.job)?.arrival;
  if (!steps.length && !arrival) return null;
  return (
    <section className="card" data-testid="script-shape">
      <div className="card-head">
        <h3>{steps.length ? 'Step loads' : 'Arrival rate'}</h3>
        <span className="muted small">{steps.length ? 'client-side transactions per step (each step a window of the run)' : 'latency counts from each arrival\u2019s intended start'}</span>
      </div>
      {steps.length ? (
        <div className="table-scroll">
          <table className="data compact" data-testid="script-steps">
            <thead>
              <tr>
                <th>step</th>
                <th>VUs</th>
                <th>window (s)</th>
                <th>transactions</th>
                <th>TPS</th>
                {names.map((n) => (
                  <th key={n}>{n} p95 ms</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {steps.map((s) => (
                <tr key={s.index} data-testid={`script-step-${s.index}`}>
                  <td>{s.index}</td>
                  <td>{s.vus}</td>
                  <td>
                    {fmtNum(s.startSec, 0)}–{fmtNum(s.endSec, 0)}
                  </td>
                  <td>{fmtInt(s.transactions)}</td>
                  <td>{fmtNum(s.tps)}</td>
                  {names.map((n) => (
                    <td key={n}>{s.latency[n]?.p95 ?? ''}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {arrival ? (
        <p className="small" data-testid="script-arrival">
          Target {fmtNum(arrival.targetRate)} /s, achieved {fmtNum(arrival.achievedRate)} /s on at most {arrival.maxSessions} sessions ({arrival.sessionsUsed} used);{' '}
          {fmtInt(arrival.dropped)} of {fmtInt(arrival.scheduled)} arrivals dropped.
        </p>
      ) : null}
    </section>
  );
}
