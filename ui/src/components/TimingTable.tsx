import type { TimingRow } from '@sledge/protocol';
import { summaryRows } from '../charts/options/boxplot.js';
import { fmtInt, fmtMs, fmtNum } from '../util/format.js';

/** HammerDB's time profile summary: one row per transaction, ms. */
export function TimingTable({ rows }: { rows: readonly TimingRow[] }) {
  const summary = summaryRows(rows);
  if (!summary.length) return <p className="muted">No time profile for this job.</p>;
  return (
    <div className="table-wrap">
      <table className="data" data-testid="timing-table">
        <caption className="sr-only">Response times per transaction (ms)</caption>
        <thead>
          <tr>
            <th scope="col">Transaction</th>
            <th scope="col">Calls</th>
            <th scope="col">Min</th>
            <th scope="col">Avg</th>
            <th scope="col">Max</th>
            <th scope="col">p25</th>
            <th scope="col">p50</th>
            <th scope="col">p75</th>
            <th scope="col">p95</th>
            <th scope="col">p99</th>
            <th scope="col">SD</th>
            <th scope="col">Ratio %</th>
          </tr>
        </thead>
        <tbody>
          {summary.map((r) => (
            <tr key={r.proc}>
              <th scope="row">{r.proc}</th>
              <td>{fmtInt(r.calls)}</td>
              <td>{fmtMs(r.minMs)}</td>
              <td>{fmtMs(r.avgMs)}</td>
              <td>{fmtMs(r.maxMs)}</td>
              <td>{fmtMs(r.p25Ms)}</td>
              <td>{fmtMs(r.p50Ms)}</td>
              <td>{fmtMs(r.p75Ms)}</td>
              <td>{fmtMs(r.p95Ms)}</td>
              <td>{fmtMs(r.p99Ms)}</td>
              <td>{fmtMs(r.sdMs)}</td>
              <td>{fmtNum(r.ratioPct, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
