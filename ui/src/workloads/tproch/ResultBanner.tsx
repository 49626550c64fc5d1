import type { Job } from '@sledge/protocol';
import { fmtMetric, fmtSec, tprochResult } from './result.js';
import { engineDoes, useCapabilities } from '../../state/capabilities.js';

/**
 * HammerDB's headline (the geometric mean of query times returning rows),
 * then Sledge's power, throughput and composite scores (per hour at the SF),
 * computed by the TPC-H specification's formulas and labelled as ours, not
 * TPC results, with the note on how they were computed.
 */
export function TprochResultBanner({ job }: { job: Job }) {
  const r = tprochResult(job);
  // DOP only where the engine has a degree of parallelism (the server's capabilities); SQLite and MySQL ignore it.
  const dop = engineDoes(job.engine, 'tproch', 'dop', useCapabilities());
  if (!r) return null;
  const metrics: [string, string, number | undefined][] = [
    ['power', 'power score', r.powerAtSize],
    ['throughput', 'throughput score', r.throughputAtSize],
    ['qphh', 'composite score', r.qphh],
  ];
  return (
    <section className="result-banner" aria-label="Test result" data-testid="result-banner">
      <p className="result-line" data-testid="result-line">
        {r.line}
      </p>
      <div className="result-numbers">
        <div>
          <span className="big" data-testid="result-geomean" data-value={r.geomean}>
            {fmtSec(r.geomean)}
          </span>
          <span className="unit">s geometric mean{r.mode === 'throughput' ? ' (slowest stream)' : r.mode === 'performance' ? ' (power test)' : ''}</span>
        </div>
        <div>
          <span className="big" data-testid="result-elapsed" data-value={r.elapsedSeconds}>
            {r.elapsedSeconds.toFixed(1)}
          </span>
          <span className="unit">
            s elapsed ({r.mode} test{r.powerSeconds !== undefined && r.throughputSeconds !== undefined ? `: power ${r.powerSeconds.toFixed(1)} s, throughput ${r.throughputSeconds.toFixed(1)} s` : ''})
          </span>
        </div>
        <div>
          <span className="big">SF {r.scaleFactor}</span>
          <span className="unit" data-testid="result-scale">
            {r.standardScale ? 'standard scale factor' : 'non-standard scale factor'} · {r.streams} stream{r.streams === 1 ? '' : 's'}
            {dop ? ` · DOP ${r.dop}` : ''}
          </span>
        </div>
        {r.errors > 0 && (
          <div>
            <span className="big bad" data-testid="result-errors">
              {r.errors}
            </span>
            <span className="unit">failed quer{r.errors === 1 ? 'y' : 'ies'}</span>
          </div>
        )}
      </div>
      <div className="tpch-metrics" aria-label="Scores (Sledge's, by the TPC-H formulas)">
        <p className="small muted tpch-metrics-head">
          Scores per hour at SF {r.scaleFactor}{' '}
          <span className="badge" title="Sledge's figures, computed by the TPC-H specification's formulas; not TPC results">Sledge's, not TPC results</span>
          {!r.standardScale && <span className="badge">non-standard SF</span>}
          {r.validation && <span className="badge">validation parameters</span>}
        </p>
        <div className="result-numbers">
          {metrics.map(([key, title, v]) => (
            <div key={key}>
              <span className="big" data-testid={`result-${key}`} data-value={v ?? ''}>
                {fmtMetric(v)}
              </span>
              <span className="unit">{title}</span>
            </div>
          ))}
        </div>
        {r.metricsNote && (
          <p className="small muted" data-testid="result-metrics-note">
            {r.metricsNote}
          </p>
        )}
      </div>
    </section>
  );
}
