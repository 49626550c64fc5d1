import { Fragment, useMemo, useState } from 'react';
import type { Job } from '@sledge/protocol';
import { EChart } from '../../charts/EChart.js';
import { paletteFor } from '../../charts/options/palette.js';
import { useTheme } from '../../theme.js';
import { ratioOption } from './charts.js';
import { SLOWER_AT, queryRatios, queryTimes, ratioGeomean, type RatioRow } from './compare.js';
import { fmtSec, tprochResult } from './result.js';

const shortId = (id: string) => `…${id.slice(-8)}`;
const ratioText = (r: number | undefined) => (r === undefined ? '–' : `${r.toFixed(2)}×`);

/** The TPROC-H jobs with a result, base first, and each other one's ratios to the base. */
function useRatios(jobs: Job[]): { base: Job | undefined; others: Job[]; ratios: RatioRow[][] } {
  const withResult = jobs.filter((j) => tprochResult(j));
  const base = withResult[0];
  const others = withResult.slice(1);
  const ratios: RatioRow[][] = useMemo(() => (base ? others.map((o) => queryRatios(tprochResult(base)!, tprochResult(o)!)) : []), [base, others.map((o) => o.id).join(',')]);
  return { base, others, ratios };
}

/**
 * Query by query: each job's time (mean over its streams and query sets)
 * against the base job's, as a ratio; queries at least 10% slower than the
 * base are marked red, 10% faster green.
 */
export function QueryCompareTable({ jobs }: { jobs: Job[] }) {
  const { base, others, ratios } = useRatios(jobs);
  if (!base || !others.length) return <p className="muted">Query by query comparison needs two TPROC-H runs with a result.</p>;
  const baseTimes = queryTimes(tprochResult(base)!);
  return (
      <section className="card" aria-labelledby="q-compare-h">
        <div className="card-head">
          <h3 id="q-compare-h">Query by query</h3>
          <span className="muted small">seconds (mean over streams and query sets) and the ratio to the base; red: ≥ {Math.round((SLOWER_AT - 1) * 100)}% slower, green: ≥ {Math.round((SLOWER_AT - 1) * 100)}% faster</span>
        </div>
        <div className="table-wrap">
          <table className="data compact" data-testid="query-compare">
            <thead>
              <tr>
                <th scope="col">Query</th>
                <th scope="col" className="num">
                  {shortId(base.id)} <span className="badge">base</span>
                </th>
                {others.map((o) => (
                  <Fragment key={o.id}>
                    <th scope="col" className="num">
                      {shortId(o.id)}
                    </th>
                    <th scope="col" className="num">
                      ratio
                    </th>
                  </Fragment>
                ))}
              </tr>
            </thead>
            <tbody>
              {baseTimes.map((b, i) => (
                <tr key={i} data-query={i + 1}>
                  <th scope="row">Q{i + 1}</th>
                  <td className="num">{fmtSec(b)}</td>
                  {ratios.map((rows, k) => {
                    const r = rows[i]!;
                    const cls = r.verdict === 'slower' ? ' bad slower' : r.verdict === 'faster' ? ' good faster' : '';
                    return (
                      <Fragment key={others[k]!.id}>
                        <td className="num">{fmtSec(r.other)}</td>
                        <td className={`num${cls}`} data-testid={`ratio-q${i + 1}-${k}`} data-ratio={r.ratio ?? ''} data-verdict={r.verdict}>
                          {r.verdict === 'slower' ? <strong>{ratioText(r.ratio)}</strong> : ratioText(r.ratio)}
                        </td>
                      </Fragment>
                    );
                  })}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" title="Geometric mean of the per-query ratios">
                  Overall
                </th>
                <td className="num">{fmtSec(tprochResult(base)!.geomean)}</td>
                {ratios.map((rows, k) => {
                  const g = ratioGeomean(rows);
                  return (
                    <Fragment key={others[k]!.id}>
                      <td className="num">{fmtSec(tprochResult(others[k]!)!.geomean)}</td>
                      <td className={`num${g !== undefined && g >= SLOWER_AT ? ' bad' : g !== undefined && g <= 1 / SLOWER_AT ? ' good' : ''}`} data-testid={`ratio-overall-${k}`} data-ratio={g ?? ''}>
                        <strong>{ratioText(g)}</strong>
                      </td>
                    </Fragment>
                  );
                })}
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
  );
}

/** The query-by-query table and a chart of one job's ratios to the base. */
export function TprochCompareCharts({ jobs }: { jobs: Job[] }) {
  const palette = paletteFor(useTheme());
  const { base, others, ratios } = useRatios(jobs);
  const [chartOf, setChartOf] = useState(0);
  const shown = Math.min(chartOf, Math.max(0, others.length - 1));
  const option = useMemo(() => (ratios[shown] ? ratioOption(ratios[shown], 'time vs base', palette, SLOWER_AT) : undefined), [ratios, shown, palette]);
  return (
    <>
      <QueryCompareTable jobs={jobs} />
      {base && others.length > 0 && (
      <section className="card">
        <div className="card-head">
          <h3>Time against the base, by query</h3>
          {others.length > 1 && (
            <label className="inline small">
              Job{' '}
              <select value={shown} onChange={(e) => setChartOf(Number(e.target.value))} data-testid="ratio-job">
                {others.map((o, k) => (
                  <option key={o.id} value={k}>
                    {shortId(o.id)}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {option && <EChart option={option} label={`Each query's time in job ${others[shown]!.id} against the base job ${base.id}; above the line: slower`} testId="query-ratio-chart" height={280} />}
      </section>
      )}
    </>
  );
}
