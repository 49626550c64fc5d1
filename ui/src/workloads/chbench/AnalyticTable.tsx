import type { ChbenchQueryStats } from '@sledge/protocol';
import { queryRows } from './analytic.js';
import { fmtSec } from './result.js';

/** Per analytic query: executions, mean/min/max seconds and errors (the result's measured window, or live so far). */
export function AnalyticTable({ perQuery }: { perQuery: readonly ChbenchQueryStats[] }) {
  const rows = queryRows(perQuery);
  return (
    <div className="table-wrap">
      <table className="data compact" data-testid="analytic-table">
        <thead>
          <tr>
            <th scope="col">Query</th>
            <th scope="col" className="num">Count</th>
            <th scope="col" className="num">Mean (s)</th>
            <th scope="col" className="num">Min (s)</th>
            <th scope="col" className="num">Max (s)</th>
            <th scope="col" className="num">Errors</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ query, stats: s }) => (
            <tr key={query} data-query={query} className={s ? undefined : 'muted'}>
              <th scope="row">Q{query}</th>
              <td className="num" data-testid={`analytic-count-q${query}`}>{s?.count ?? 0}</td>
              <td className="num">{s && s.count ? fmtSec(s.meanSeconds) : '–'}</td>
              <td className="num">{s && s.count ? fmtSec(s.minSeconds) : '–'}</td>
              <td className="num">{s && s.count ? fmtSec(s.maxSeconds) : '–'}</td>
              <td className={`num${s?.errors ? ' bad' : ''}`}>{s?.errors ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
